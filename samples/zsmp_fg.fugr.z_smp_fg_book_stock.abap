FUNCTION z_smp_fg_book_stock.
*"----------------------------------------------------------------------
*"*"Local Interface:
*"  IMPORTING
*"     VALUE(IV_PRODUCT) TYPE  ZSMP_STOCK-PRODUCT
*"     VALUE(IV_QUANTITY) TYPE  I
*"  EXPORTING
*"     VALUE(EV_ON_HAND) TYPE  I
*"  EXCEPTIONS
*"      UNKNOWN_PRODUCT
*"      NOT_ENOUGH
*"----------------------------------------------------------------------
  SELECT SINGLE on_hand FROM zsmp_stock
    WHERE product = @iv_product
    INTO @DATA(lv_on_hand).
  IF sy-subrc <> 0.
    RAISE unknown_product.
  ENDIF.
  IF lv_on_hand < iv_quantity.
    RAISE not_enough.
  ENDIF.
  UPDATE zsmp_stock SET on_hand = on_hand - @iv_quantity WHERE product = @iv_product.
  ev_on_hand = lv_on_hand - iv_quantity.
ENDFUNCTION.
