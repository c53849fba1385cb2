*&---------------------------------------------------------------------*
*& Report ZSMP_FIELD_SYMBOLS: a field symbol of the program, assigned in
*& one FORM and used in others; rows of a global table changed through it.
*&---------------------------------------------------------------------*
REPORT zsmp_field_symbols.

TYPES: BEGIN OF ty_stock,
         item TYPE c LENGTH 8,
         qty  TYPE i,
       END OF ty_stock.

DATA gt_stock TYPE STANDARD TABLE OF ty_stock WITH EMPTY KEY.
DATA gr_last TYPE REF TO ty_stock.
FIELD-SYMBOLS <gs_current> TYPE ty_stock.

START-OF-SELECTION.
  gt_stock = VALUE #( ( item = 'BOLT' qty = 40 )
                      ( item = 'NUT' qty = 25 )
                      ( item = 'WASHER' qty = 60 ) ).
  PERFORM pick USING 'NUT'.
  PERFORM take USING 5.
  PERFORM pick USING 'WASHER'.
  PERFORM take USING 12.
  PERFORM pick USING 'SCREW'.
  IF <gs_current> IS NOT ASSIGNED.
    WRITE / 'SCREW is not in stock'.
  ENDIF.
  gr_last->qty = gr_last->qty + 1.
  LOOP AT gt_stock ASSIGNING FIELD-SYMBOL(<ls_row>).
    WRITE / |{ <ls_row>-item } { <ls_row>-qty }|.
  ENDLOOP.

FORM pick USING iv_item TYPE c.
  UNASSIGN <gs_current>.
  READ TABLE gt_stock WITH KEY item = iv_item ASSIGNING <gs_current>.
ENDFORM.

FORM take USING iv_qty TYPE i.
  <gs_current>-qty = <gs_current>-qty - iv_qty.
  GET REFERENCE OF <gs_current> INTO gr_last.
  WRITE / |took { iv_qty } { <gs_current>-item }|.
ENDFORM.
