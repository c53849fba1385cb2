"! Table expressions as write targets, chained table expressions, KEY … INDEX and KEY …
"! COMPONENTS, and initial rows in VALUE.
CLASS zcl_smp_table_exprs DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.

    TYPES: BEGIN OF ty_city,
             id   TYPE i,
             name TYPE string,
           END OF ty_city.
    TYPES ty_cities TYPE STANDARD TABLE OF ty_city WITH EMPTY KEY
      WITH NON-UNIQUE SORTED KEY by_name COMPONENTS name.
    TYPES ty_row TYPE STANDARD TABLE OF i WITH EMPTY KEY.
    TYPES ty_matrix TYPE STANDARD TABLE OF ty_row WITH EMPTY KEY.
ENDCLASS.



CLASS zcl_smp_table_exprs IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA(lt_cities) = VALUE ty_cities( ( id = 1 name = `Paris` )
                                       ( id = 2 name = `Berlin` )
                                       ( id = 3 name = `Madrid` ) ).
    lt_cities[ 1 ]-name = `Lyon`.
    lt_cities[ id = 2 ]-name &&= `-Mitte`.
    lt_cities[ 3 ] = VALUE #( id = 30 name = `Sevilla` ).
    LOOP AT lt_cities INTO DATA(ls_city).
      out->write( |{ ls_city-id } { ls_city-name }| ).
    ENDLOOP.

    out->write( |first by name: { lt_cities[ KEY by_name INDEX 1 ]-name }| ).
    out->write( |id of Sevilla: { lt_cities[ KEY by_name name = `Sevilla` ]-id }| ).

    ASSIGN lt_cities[ id = 30 ] TO FIELD-SYMBOL(<ls_city>).
    IF sy-subrc = 0.
      <ls_city>-id = 3.
    ENDIF.
    ASSIGN lt_cities[ id = 99 ] TO <ls_city>.
    out->write( |assign of a missing row: sy-subrc { sy-subrc }| ).
    TRY.
        lt_cities[ id = 99 ]-name = `Nowhere`.
      CATCH cx_sy_itab_line_not_found.
        out->write( `writing a missing row: CX_SY_ITAB_LINE_NOT_FOUND` ).
    ENDTRY.

    DATA(lt_matrix) = VALUE ty_matrix( ( VALUE #( ( 1 ) ( 2 ) ) )
                                       ( VALUE #( ( 3 ) ( 4 ) ) ) ).
    lt_matrix[ 1 ][ 2 ] = 20.
    lt_matrix[ 2 ][ 2 ] *= 10.
    out->write( |matrix { lt_matrix[ 1 ][ 1 ] } { lt_matrix[ 1 ][ 2 ] } { lt_matrix[ 2 ][ 1 ] } { lt_matrix[ 2 ][ 2 ] }| ).

    DATA(lt_blank) = VALUE ty_cities( ( ) ( id = 7 ) ( ) ).
    out->write( |{ lines( lt_blank ) } rows, ids { lt_blank[ 1 ]-id } { lt_blank[ 2 ]-id } { lt_blank[ 3 ]-id }| ).
    out->write( |Sevilla is now id { lt_cities[ 3 ]-id }| ).
  ENDMETHOD.
ENDCLASS.
