"! String statements on a small import file: split records, clean fields, find and replace.
CLASS zcl_smp_string_statements DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.

  PRIVATE SECTION.
    METHODS clean_name
      IMPORTING
        iv_raw         TYPE string
      RETURNING
        VALUE(rv_name) TYPE string.
ENDCLASS.



CLASS zcl_smp_string_statements IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA lt_lines TYPE string_table.
    DATA lv_id TYPE c LENGTH 6.
    DATA lv_name TYPE string.
    DATA lv_city TYPE string.
    DATA lv_report TYPE string.

    SPLIT `000042;  ada   lovelace ;London|000007;alan turing;Wilmslow|` AT '|' INTO TABLE lt_lines.
    out->write( |{ lines( lt_lines ) } records| ).

    LOOP AT lt_lines INTO DATA(lv_line).
      SPLIT lv_line AT ';' INTO lv_id lv_name lv_city.
      SHIFT lv_id LEFT DELETING LEADING '0'.
      lv_name = clean_name( lv_name ).
      CONCATENATE lv_id lv_name lv_city INTO DATA(lv_record) SEPARATED BY ' / '.
      out->write( lv_record ).
      CONCATENATE lv_report lv_id INTO lv_report SEPARATED BY ','.
    ENDLOOP.
    SHIFT lv_report LEFT BY 1 PLACES.
    out->write( |ids: { lv_report }| ).

    DATA(lv_text) = `the quick brown fox jumps over the lazy dog`.
    FIND ALL OCCURRENCES OF 'the' IN lv_text MATCH COUNT DATA(lv_count) MATCH OFFSET DATA(lv_last).
    out->write( |"the" found { lv_count } times, last at { lv_last }| ).
    REPLACE ALL OCCURRENCES OF ` ` IN lv_text WITH `_` REPLACEMENT COUNT DATA(lv_blanks).
    out->write( |{ lv_blanks } blanks replaced: { lv_text+0(15) }| ).
    IF lv_text CS 'FOX'.
      out->write( |fox at offset { sy-fdpos }| ).
    ENDIF.
    IF lv_text CP '*lazy*'.
      out->write( |lazy matches the pattern| ).
    ENDIF.
    IF lv_id CO '0123456789 '.
      out->write( |{ lv_id } is numeric| ).
    ENDIF.
  ENDMETHOD.

  METHOD clean_name.
    DATA lv_first TYPE string.
    DATA lv_last TYPE string.
    rv_name = iv_raw.
    CONDENSE rv_name.
    SPLIT rv_name AT space INTO lv_first lv_last.
    TRANSLATE lv_first TO UPPER CASE.
    TRANSLATE lv_last TO UPPER CASE.
    rv_name = |{ lv_first(1) }. { lv_last }|.
  ENDMETHOD.

ENDCLASS.
