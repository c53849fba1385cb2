"! Back references in regular expressions: \1 in a pattern finds repeated text.
CLASS zcl_smp_regex_backrefs DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
ENDCLASS.



CLASS zcl_smp_regex_backrefs IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA(lv_text) = `this is is a test test of of doubled words`.
    FIND ALL OCCURRENCES OF REGEX `\b(\w+) \1\b` IN lv_text MATCH COUNT DATA(lv_count).
    out->write( |doubled words: { lv_count }| ).
    REPLACE ALL OCCURRENCES OF REGEX `\b(\w+) \1\b` IN lv_text WITH `$1`.
    out->write( lv_text ).

    out->write( |letters twice in a row: { count( val = `bookkeeper` pcre = `(\w)\1` ) }| ).
    out->write( |{ replace( val = `2024-12-12` pcre = `(\d\d)-\1` with = `$1 twice` ) }| ).
    IF matches( val = `abcabc` regex = `(abc)\1` ).
      out->write( `abcabc is abc twice` ).
    ENDIF.

    TRY.
        FIND PCRE `(a*)*b\1` IN repeat( val = `a` occ = 50 ).
      CATCH cx_sy_regex_too_complex.
        out->write( `a pattern that backtracks without end is too complex` ).
    ENDTRY.
  ENDMETHOD.
ENDCLASS.
