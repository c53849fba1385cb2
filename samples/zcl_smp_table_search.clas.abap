"! FIND and REPLACE over the lines of a table: scanning a small log.
CLASS zcl_smp_table_search DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
ENDCLASS.



CLASS zcl_smp_table_search IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    SPLIT `10:01 INFO start|10:02 WARN disk 91%|10:05 ERROR disk full|10:06 INFO retry|10:07 ERROR timeout`
      AT `|` INTO TABLE DATA(lt_log).
    out->write( |{ lines( lt_log ) } log lines| ).

    FIND FIRST OCCURRENCE OF `ERROR` IN TABLE lt_log MATCH LINE DATA(lv_line) MATCH OFFSET DATA(lv_offset).
    out->write( |First error in line { lv_line } at offset { lv_offset }| ).

    FIND ALL OCCURRENCES OF `disk` IN TABLE lt_log MATCH COUNT DATA(lv_count) MATCH LINE lv_line.
    out->write( |"disk" { lv_count } times, last in line { lv_line }| ).

    FIND REGEX `(\d+)%` IN TABLE lt_log SUBMATCHES DATA(lv_percent).
    out->write( |Disk usage: { lv_percent } percent| ).

    FIND `FATAL` IN TABLE lt_log.
    IF sy-subrc <> 0.
      out->write( `No fatal errors` ).
    ENDIF.

    REPLACE ALL OCCURRENCES OF `ERROR` IN TABLE lt_log WITH `E` REPLACEMENT COUNT DATA(lv_replaced).
    REPLACE ALL OCCURRENCES OF REGEX `^(\d\d):(\d\d)` IN TABLE lt_log WITH `$1h$2`.
    out->write( |{ lv_replaced } errors shortened| ).
    LOOP AT lt_log INTO DATA(lv_entry).
      out->write( lv_entry ).
    ENDLOOP.
  ENDMETHOD.

ENDCLASS.
