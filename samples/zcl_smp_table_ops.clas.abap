"! Internal table statements: APPEND/INSERT LINES OF, MODIFY … TRANSPORTING, MODIFY TABLE,
"! READ TABLE with BINARY SEARCH and WITH TABLE KEY, DESCRIBE TABLE, DELETE TABLE.
CLASS zcl_smp_table_ops DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.

    TYPES: BEGIN OF ty_city,
             name       TYPE string,
             country    TYPE c LENGTH 2,
             population TYPE i,
           END OF ty_city,
           tt_cities TYPE STANDARD TABLE OF ty_city WITH DEFAULT KEY,
           tt_by_name TYPE SORTED TABLE OF ty_city WITH UNIQUE KEY name,
           tt_numbers TYPE STANDARD TABLE OF i WITH EMPTY KEY.

ENDCLASS.



CLASS zcl_smp_table_ops IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA(lt_numbers) = VALUE tt_numbers( ( 3 ) ( 8 ) ( 15 ) ( 15 ) ( 42 ) ).
    DATA lt_some TYPE tt_numbers.
    APPEND LINES OF lt_numbers FROM 2 TO 3 TO lt_some.
    out->write( |appended { lines( lt_some ) } rows, last at { sy-tabix }| ).

    " Binary search on a table sorted by its line.
    DATA lv_number TYPE i.
    READ TABLE lt_numbers INTO lv_number WITH KEY table_line = 15 BINARY SEARCH.
    out->write( |15: subrc { sy-subrc } tabix { sy-tabix }| ).
    READ TABLE lt_numbers TRANSPORTING NO FIELDS WITH KEY table_line = 10 BINARY SEARCH.
    out->write( |10: subrc { sy-subrc } tabix { sy-tabix }| ).
    READ TABLE lt_numbers TRANSPORTING NO FIELDS WITH KEY table_line = 50 BINARY SEARCH.
    out->write( |50: subrc { sy-subrc } tabix { sy-tabix }| ).

    DATA(lt_cities) = VALUE tt_cities(
      ( name = `Lyon`    country = 'FR' population = 516 )
      ( name = `Bergen`  country = 'NO' population = 285 )
      ( name = `Aarhus`  country = 'DK' population = 285 ) ).
    DATA lt_by_name TYPE tt_by_name.
    INSERT LINES OF lt_cities INTO TABLE lt_by_name.
    INSERT VALUE #( name = `Lyon` country = 'XX' ) INTO TABLE lt_by_name.
    out->write( |duplicate insert: subrc { sy-subrc }| ).

    MODIFY lt_by_name FROM VALUE #( population = 300 )
      TRANSPORTING population WHERE population < 300.
    MODIFY TABLE lt_by_name FROM VALUE #( name = `Lyon` country = 'FR' population = 522 ).
    out->write( |modify table: subrc { sy-subrc }| ).

    READ TABLE lt_by_name INTO DATA(ls_city) WITH TABLE KEY name = `Bergen`.
    out->write( |{ ls_city-name } { ls_city-population } at { sy-tabix }| ).
    READ TABLE lt_by_name INTO ls_city WITH KEY name = `Kiel`.
    out->write( |Kiel: subrc { sy-subrc } tabix { sy-tabix }| ).

    DELETE TABLE lt_by_name WITH TABLE KEY name = `Aarhus`.
    DATA lv_lines TYPE i.
    DESCRIBE TABLE lt_by_name LINES lv_lines.
    out->write( |{ lv_lines } cities left, sy-tfill { sy-tfill }| ).
    LOOP AT lt_by_name INTO ls_city.
      out->write( |{ sy-tabix }: { ls_city-name } { ls_city-country } { ls_city-population }| ).
    ENDLOOP.
  ENDMETHOD.

ENDCLASS.
