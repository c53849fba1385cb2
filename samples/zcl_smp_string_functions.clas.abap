"! Built-in string functions: substring and its variants, find, count, replace, shift,
"! condense, concat_lines_of, repeat, reverse, segment, to_mixed/from_mixed, strlen,
"! contains, xsdbool and line_index, and the exceptions wrong arguments raise.
CLASS zcl_smp_string_functions DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
ENDCLASS.



CLASS zcl_smp_string_functions IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA lv_text TYPE string VALUE `Hello World`.
    DATA lv_fixed TYPE c LENGTH 10 VALUE 'abc'.
    DATA lt_words TYPE string_table.

    out->write( |substring: { substring( val = lv_text off = 6 len = 5 ) }| ).
    out->write( |after: { substring_after( val = `key=value` sub = `=` ) }| ).
    out->write( |before: { substring_before( val = `key=value` sub = `=` ) }| ).
    out->write( |from: { substring_from( val = lv_text sub = `W` ) }| ).
    out->write( |to: { substring_to( val = lv_text sub = `o` ) }| ).
    out->write( |find: { find( val = lv_text sub = `o` ) } { find( val = lv_text sub = `o` occ = 2 ) } { find( val = lv_text sub = `x` ) }| ).
    out->write( |count: { count( val = lv_text sub = `l` ) }| ).
    out->write( |replace all: { replace( val = lv_text sub = `l` with = `L` occ = 0 ) }| ).
    out->write( |replace first: { replace( val = lv_text sub = `World` with = `ABAP` ) }| ).
    out->write( |shift: { shift_left( val = lv_text places = 6 ) } { shift_right( val = lv_text places = 6 ) }| ).
    out->write( |circular: { shift_left( val = `abcde` circular = 2 ) }| ).
    out->write( |condense: [{ condense( `  a   b  ` ) }]| ).

    APPEND `red` TO lt_words.
    APPEND `green` TO lt_words.
    APPEND `blue` TO lt_words.
    out->write( |lines: { concat_lines_of( table = lt_words sep = `, ` ) }| ).
    out->write( |line_index: { line_index( lt_words[ table_line = `blue` ] ) } { line_index( lt_words[ table_line = `pink` ] ) }| ).

    out->write( |repeat: { repeat( val = `ab` occ = 3 ) }, reverse: { reverse( `ABAP` ) }| ).
    out->write( |segment: { segment( val = `a;b;c` index = 2 sep = `;` ) }| ).
    out->write( |mixed: { to_mixed( `SALES_ORDER_ITEM` ) } { from_mixed( `SalesOrderItem` ) }| ).
    out->write( |case: { to_upper( `abc` ) } { to_lower( `DEF` ) }| ).
    out->write( |strlen: { strlen( lv_fixed ) } { strlen( `abc  ` ) }| ).
    out->write( |xsdbool: { xsdbool( strlen( lv_text ) > 5 ) }| ).
    IF contains( val = lv_text sub = `World` ) AND NOT contains( val = lv_text start = `World` ).
      out->write( `contains: yes` ).
    ENDIF.

    out->write( |documented: { substring( val = 'ABCDEFGH' off = 2 len = 2 ) } { substring_from( val = 'ABCDEFGH' sub = 'CD' ) } { substring_after( val = 'ABCDEFGH' sub = 'CD' ) } { substring_before( val = 'ABCDEFGH' sub = 'CD' ) } { substring_to( val = 'ABCDEFGH' sub = 'CD' ) }| ).
    out->write( |distance: { distance( val1 = `abcdefg` val2 = `abcdefg` ) } { distance( val1 = `abcdefg` val2 = `abcXefg` ) } { distance( val1 = `abcdefg` val2 = `aXcdXXg` ) }| ).
    out->write( |condense: [{ condense( val = `  XXThis ISSS X sTringXX` del = |X | from = 'TS' to = 'to' ) }]| ).
    out->write( |translate: { translate( val = 'ABCDAB' from = 'ACB' to = 'YZ' ) }| ).

    TRY.
        out->write( substring( val = lv_text off = 20 ) ).
      CATCH cx_sy_range_out_of_bounds.
        out->write( `substring off 20: out of bounds` ).
    ENDTRY.
    TRY.
        out->write( segment( val = `a;b;c` index = 5 sep = `;` ) ).
      CATCH cx_sy_strg_par_val.
        out->write( `segment 5: no such segment` ).
    ENDTRY.
  ENDMETHOD.
ENDCLASS.
