"! String functions with regular expressions on order lines, and nmax/nmin/ipow.
CLASS zcl_smp_regex_functions DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
ENDCLASS.



CLASS zcl_smp_regex_functions IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA lv_line TYPE string VALUE `Order 4711 from 2024-03-15: 12 pcs at 3.50 EUR`.
    DATA lv_code TYPE c LENGTH 12 VALUE 'AB-1234-X'.

    out->write( |First number at: { find( val = lv_line regex = `[0-9]+` ) }| ).
    out->write( |End of first number: { find_end( val = lv_line regex = `[0-9]+` ) }| ).
    out->write( |Numbers: { count( val = lv_line regex = `[0-9]+` ) }| ).
    out->write( |Order: { match( val = lv_line regex = `[0-9]+` ) }| ).
    out->write( |Last number: { match( val = lv_line regex = `[0-9.]+` occ = -1 ) }| ).
    out->write( |Date: { match( val = lv_line pcre = `\d{4}-\d{2}-\d{2}` ) }| ).
    out->write( |German date: { replace( val = lv_line pcre = `.*(\d{4})-(\d{2})-(\d{2}).*` with = `$3.$2.$1` ) }| ).
    out->write( |After the colon: { substring_after( val = lv_line pcre = `:\s*` ) }| ).
    out->write( |Before the date: [{ substring_before( val = lv_line regex = `[0-9]{4}-` ) }]| ).
    out->write( |Masked: { replace( val = lv_code regex = `[0-9]` with = `#` occ = 0 ) }| ).
    out->write( |Lower-case words: { count( val = `Alpha beta Gamma` pcre = `\b[a-z]` case = abap_true ) }| ).
    IF matches( val = lv_code regex = `[A-Z]{2}-[0-9]{4}-[A-Z]` ).
      out->write( `Code format ok` ).
    ENDIF.
    IF NOT matches( val = `AB-12X4-X` regex = `[A-Z]{2}-[0-9]{4}-[A-Z]` ).
      out->write( `Bad code rejected` ).
    ENDIF.
    IF contains( val = lv_line pcre = `EUR$` ).
      out->write( `Amount in euro` ).
    ENDIF.
    out->write( |Largest: { nmax( val1 = 17 val2 = 42 val3 = 5 ) }, smallest: { nmin( val1 = 17 val2 = 42 val3 = 5 ) }| ).
    out->write( |2 ** 10 = { ipow( base = 2 exp = 10 ) }| ).
    TRY.
        out->write( find( val = lv_line regex = `[0-9]` off = 99 ) ).
      CATCH cx_sy_range_out_of_bounds.
        out->write( `Offset 99 is outside the line` ).
    ENDTRY.
  ENDMETHOD.

ENDCLASS.
