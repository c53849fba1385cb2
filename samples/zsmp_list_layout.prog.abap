*&---------------------------------------------------------------------*
*& Report ZSMP_LIST_LAYOUT
*& A classic list laid out with positions, output lengths, NO-GAP and
*& formatting options, a TOP-OF-PAGE header, and PARAMETERS defaults.
*&---------------------------------------------------------------------*
REPORT zsmp_list_layout NO STANDARD PAGE HEADING.

TYPES: BEGIN OF ty_item,
         name  TYPE c LENGTH 12,
         qty   TYPE i,
         price TYPE p LENGTH 6 DECIMALS 2,
       END OF ty_item.

DATA gt_items TYPE STANDARD TABLE OF ty_item WITH EMPTY KEY.
DATA gv_total TYPE p LENGTH 8 DECIMALS 2.

PARAMETERS p_limit TYPE i DEFAULT 3.
PARAMETERS p_cur TYPE c LENGTH 3 DEFAULT 'EUR'.

TOP-OF-PAGE.
  FORMAT COLOR COL_HEADING.
  WRITE: / 'Item', 15 'Qty', 30 'Price'.
  FORMAT RESET.
  WRITE / sy-uline(40).

START-OF-SELECTION.
  gt_items = VALUE #( ( name = 'Apples' qty = 12 price = '0.45' )
                      ( name = 'Pears' qty = 3 price = '1.20' )
                      ( name = 'Cherries' qty = 250 price = '0.05' )
                      ( name = 'Melons' qty = 1 price = '3.99' ) ).
  LOOP AT gt_items INTO DATA(ls_item) TO p_limit.
    WRITE: / ls_item-name, 13(5) ls_item-qty, 25 ls_item-price.
    gv_total = gv_total + ls_item-qty * ls_item-price.
  ENDLOOP.
  WRITE / sy-uline(40).
  WRITE: / 'Total' NO-GAP, ':', 25 gv_total, p_cur.
  WRITE: / 'Rounded', 25 gv_total DECIMALS 0 LEFT-JUSTIFIED.
