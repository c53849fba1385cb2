"! Range tables with IN (signs I/E, options EQ BT CP …), IS SUPPLIED for optional
"! parameters and IS INSTANCE OF.
CLASS zcl_smp_ranges DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.

    TYPES ty_amount_range TYPE RANGE OF i.

    METHODS describe
      IMPORTING iv_text        TYPE string
                iv_width       TYPE i OPTIONAL
                iv_fill        TYPE c DEFAULT '.'
      RETURNING VALUE(rv_text) TYPE string.

ENDCLASS.



CLASS zcl_smp_ranges IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA lr_amount TYPE ty_amount_range.
    DATA lv_hits TYPE string.

    " An empty range contains everything.
    IF 42 IN lr_amount.
      out->write( `42 is in the empty range` ).
    ENDIF.

    lr_amount = VALUE #( ( sign = 'I' option = 'BT' low = 10 high = 20 )
                         ( sign = 'I' option = 'GE' low = 90 )
                         ( sign = 'E' option = 'EQ' low = 15 ) ).
    DO 100 TIMES.
      IF sy-index IN lr_amount.
        lv_hits = |{ lv_hits } { sy-index }|.
      ENDIF.
    ENDDO.
    out->write( |in range:{ lv_hits }| ).

    DATA lr_city TYPE RANGE OF string.
    " CP patterns ignore case: *N also excludes Berlin.
    lr_city = VALUE #( ( sign = 'I' option = 'CP' low = `B*` )
                       ( sign = 'E' option = 'CP' low = `*N` ) ).
    DATA(lt_cities) = VALUE string_table( ( `Berlin` ) ( `Bonn` ) ( `Basel` ) ( `Paris` ) ).
    DATA lv_city TYPE string.
    LOOP AT lt_cities INTO lv_city WHERE table_line IN lr_city.
      out->write( |{ lv_city } matches| ).
    ENDLOOP.
    DATA(lv_others) = 0.
    LOOP AT lt_cities INTO lv_city.
      IF lv_city NOT IN lr_city.
        lv_others = lv_others + 1.
      ENDIF.
    ENDLOOP.
    out->write( |{ lv_others } cities do not match| ).

    out->write( describe( `abc` ) ).
    out->write( describe( iv_text = `abc` iv_width = 6 ) ).
    out->write( describe( iv_text = `abc` iv_width = 6 iv_fill = '*' ) ).

    DATA lo_error TYPE REF TO cx_root.
    lo_error = NEW cx_sy_zerodivide( ).
    IF lo_error IS INSTANCE OF cx_sy_arithmetic_error.
      out->write( `zero division is an arithmetic error` ).
    ENDIF.
    IF lo_error IS NOT INSTANCE OF cx_sy_conversion_error.
      out->write( `zero division is no conversion error` ).
    ENDIF.
  ENDMETHOD.

  METHOD describe.
    rv_text = iv_text.
    IF iv_width IS NOT SUPPLIED.
      rv_text = |{ rv_text } (no width)|.
      RETURN.
    ENDIF.
    WHILE strlen( rv_text ) < iv_width.
      rv_text = rv_text && iv_fill.
    ENDWHILE.
    IF iv_fill IS SUPPLIED.
      rv_text = |{ rv_text } (fill { iv_fill })|.
    ENDIF.
  ENDMETHOD.

ENDCLASS.
