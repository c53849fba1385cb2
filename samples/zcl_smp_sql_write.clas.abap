"! Open SQL writes on ZSMP_STOCK: INSERT (one row, VALUES, FROM TABLE, ACCEPTING DUPLICATE
"! KEYS), UPDATE (SET … WHERE, FROM a work area or a table), MODIFY (a row, a table), DELETE
"! (WHERE, FROM a work area or a table),
"! a duplicate key caught as CX_SY_OPEN_SQL_DB, COMMIT WORK and ROLLBACK WORK. It rolls its
"! changes back, so it leaves the table as its data file has it.
CLASS zcl_smp_sql_write DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
    TYPES tt_stock TYPE STANDARD TABLE OF zsmp_stock WITH EMPTY KEY.

  PRIVATE SECTION.
    METHODS list
      IMPORTING out   TYPE REF TO if_oo_adt_classrun_out
                title TYPE string.

ENDCLASS.



CLASS zcl_smp_sql_write IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    COMMIT WORK.
    out->write( |commit: { sy-subrc }| ).

    DATA ls_stock TYPE zsmp_stock.
    ls_stock = VALUE #( product = 'GEAR' on_hand = 15 location = 'C3' ).
    INSERT zsmp_stock FROM @ls_stock.
    out->write( |insert: { sy-subrc } { sy-dbcnt }| ).
    INSERT INTO zsmp_stock VALUES @ls_stock.
    out->write( |insert again: { sy-subrc } { sy-dbcnt }| ).

    DATA(lt_new) = VALUE tt_stock( ( product = 'AXLE' on_hand = 5 location = 'C1' )
                                   ( product = 'PIN' on_hand = 900 location = 'A9' ) ).
    INSERT zsmp_stock FROM TABLE @lt_new.
    out->write( |insert table: { sy-subrc } { sy-dbcnt }| ).

    UPDATE zsmp_stock SET on_hand = on_hand - 20 WHERE location LIKE 'A%'.
    out->write( |update where: { sy-subrc } { sy-dbcnt }| ).
    ls_stock-on_hand = 0.
    UPDATE zsmp_stock FROM @ls_stock.
    out->write( |update row: { sy-subrc } { sy-dbcnt }| ).

    ls_stock = VALUE #( product = 'SCREW' on_hand = 45 location = 'B2' ).
    MODIFY zsmp_stock FROM @ls_stock.
    out->write( |modify existing: { sy-subrc } { sy-dbcnt }| ).
    ls_stock = VALUE #( product = 'CLIP' on_hand = 60 location = 'B3' ).
    MODIFY zsmp_stock FROM @ls_stock.
    out->write( |modify new: { sy-subrc } { sy-dbcnt }| ).

    DELETE FROM zsmp_stock WHERE on_hand = 0.
    out->write( |delete where: { sy-subrc } { sy-dbcnt }| ).
    DELETE zsmp_stock FROM @ls_stock.
    out->write( |delete row: { sy-subrc } { sy-dbcnt }| ).
    DELETE FROM zsmp_stock WHERE location = 'Z9'.
    out->write( |delete none: { sy-subrc } { sy-dbcnt }| ).

    " Whole tables of rows: MODIFY, UPDATE and DELETE FROM TABLE.
    DATA(lt_rows) = VALUE tt_stock( ( product = 'AXLE' on_hand = 6 location = 'C1' )
                                    ( product = 'CLAMP' on_hand = 2 location = 'C2' ) ).
    MODIFY zsmp_stock FROM TABLE @lt_rows.
    out->write( |modify table: { sy-subrc } { sy-dbcnt }| ).
    lt_rows = VALUE #( ( product = 'PIN' on_hand = 800 location = 'A9' ) ( product = 'NONE' ) ).
    UPDATE zsmp_stock FROM TABLE @lt_rows.
    out->write( |update table: { sy-subrc } { sy-dbcnt }| ).
    lt_rows = VALUE #( ( product = 'CLAMP' ) ( product = 'AXLE' ) ).
    DELETE zsmp_stock FROM TABLE @lt_rows.
    out->write( |delete table: { sy-subrc } { sy-dbcnt }| ).
    list( out = out title = `changed` ).

    ROLLBACK WORK.
    list( out = out title = `rolled back` ).

    " A key that exists in an array insert is a runtime error; the statement inserts nothing.
    DATA(lt_dup) = VALUE tt_stock( ( product = 'AXLE' on_hand = 1 ) ( product = 'BOLT' on_hand = 1 ) ).
    TRY.
        INSERT zsmp_stock FROM TABLE @lt_dup.
      CATCH cx_sy_open_sql_db.
        out->write( |duplicate key: caught| ).
    ENDTRY.
    INSERT zsmp_stock FROM TABLE @lt_dup ACCEPTING DUPLICATE KEYS.
    out->write( |accepting duplicates: { sy-subrc } { sy-dbcnt }| ).
    ROLLBACK WORK.
    list( out = out title = `at the end` ).
  ENDMETHOD.

  METHOD list.
    SELECT * FROM zsmp_stock ORDER BY product INTO TABLE @DATA(lt_stock).
    DATA(lv_text) = ``.
    LOOP AT lt_stock INTO DATA(ls_stock).
      lv_text = |{ lv_text } { ls_stock-product }={ ls_stock-on_hand }|.
    ENDLOOP.
    out->write( |{ title }:{ lv_text }| ).
  ENDMETHOD.

ENDCLASS.
