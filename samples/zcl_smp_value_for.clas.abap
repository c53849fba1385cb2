"! Constructor expressions with iterations: VALUE with FOR, WHERE, INDEX INTO, LET, BASE and
"! LINES OF; REDUCE with INIT/NEXT; conditional iterations FOR i = … UNTIL|WHILE.
CLASS zcl_smp_value_for DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.

    TYPES: BEGIN OF ty_order,
             id       TYPE i,
             customer TYPE string,
             amount   TYPE p LENGTH 8 DECIMALS 2,
           END OF ty_order,
           tt_orders TYPE STANDARD TABLE OF ty_order WITH EMPTY KEY,
           tt_texts  TYPE STANDARD TABLE OF string WITH EMPTY KEY,
           tt_ints   TYPE STANDARD TABLE OF i WITH EMPTY KEY.

ENDCLASS.



CLASS zcl_smp_value_for IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA(lt_orders) = VALUE tt_orders(
      ( id = 1 customer = `Ada`   amount = '120.00' )
      ( id = 2 customer = `Grace` amount = '35.50' )
      ( id = 3 customer = `Ada`   amount = '80.25' )
      ( id = 4 customer = `Linus` amount = '410.00' ) ).

    " Rows from rows.
    DATA(lt_labels) = VALUE tt_texts( FOR ls_order IN lt_orders INDEX INTO lv_index
                                      WHERE ( amount > 50 )
                                      LET lv_tag = |#{ ls_order-id }| IN
                                      ( |{ lv_index }. { lv_tag } { ls_order-customer }| ) ).
    LOOP AT lt_labels INTO DATA(lv_label).
      out->write( lv_label ).
    ENDLOOP.

    " Conditional iterations.
    DATA(lt_squares) = VALUE tt_ints( FOR i = 1 UNTIL i > 5 ( i * i ) ).
    DATA(lt_odd) = VALUE tt_ints( FOR j = 1 THEN j + 2 WHILE j < 10 ( j ) ).
    lt_odd = VALUE #( BASE lt_odd ( 99 ) ).
    DATA(lt_all) = VALUE tt_ints( ( 0 ) ( LINES OF lt_squares ) ( LINES OF lt_odd ) ).
    DATA(lv_list) = REDUCE string( INIT s = `` FOR n IN lt_all NEXT s = |{ s } { n }| ).
    out->write( |numbers:{ lv_list }| ).

    " Reductions.
    " INIT sum = 0 makes sum an i: each step rounds.
    DATA(lv_rounded) = REDUCE i( INIT sum = 0 FOR o IN lt_orders NEXT sum = sum + o-amount ).
    DATA(lv_total) = REDUCE decfloat34( INIT sum TYPE decfloat34 FOR o IN lt_orders NEXT sum = sum + o-amount ).
    DATA(lv_ada) = REDUCE i( INIT c = 0 FOR o IN lt_orders WHERE ( customer = `Ada` ) NEXT c = c + 1 ).
    DATA(lv_names) = REDUCE string( INIT text = `` sep = ``
                                    FOR o IN lt_orders
                                    NEXT text = text && sep && o-customer sep = `, ` ).
    out->write( |total { lv_total } (as i: { lv_rounded }), Ada ordered { lv_ada } times| ).
    out->write( lv_names ).
    DATA(lv_factorial) = REDUCE i( INIT f = 1 FOR k = 2 UNTIL k > 6 NEXT f = f * k ).
    out->write( |6! = { lv_factorial }| ).
  ENDMETHOD.

ENDCLASS.
