"! Hashed and sorted tables, INCLUDE TYPE, DELETE ADJACENT DUPLICATES, REFRESH and EQUIV.
CLASS zcl_smp_table_kinds DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.

    TYPES:
      BEGIN OF ty_key,
        country TYPE c LENGTH 2,
        city    TYPE c LENGTH 10,
      END OF ty_key.
    TYPES:
      BEGIN OF ty_site.
        INCLUDE TYPE ty_key.
    TYPES:
        staff TYPE i,
      END OF ty_site.
    TYPES ty_sites_by_key TYPE HASHED TABLE OF ty_site WITH UNIQUE KEY country city.
    TYPES ty_sites_sorted TYPE SORTED TABLE OF ty_site WITH NON-UNIQUE KEY country.
ENDCLASS.



CLASS zcl_smp_table_kinds IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA lt_hashed TYPE ty_sites_by_key.
    DATA lt_sorted TYPE ty_sites_sorted.
    DATA lt_countries TYPE STANDARD TABLE OF ty_key-country WITH DEFAULT KEY.
    DATA ls_site TYPE ty_site.

    ls_site-country = 'DE'.
    ls_site-city = 'Walldorf'.
    ls_site-staff = 500.
    INSERT ls_site INTO TABLE lt_hashed.
    ls_site-country = 'US'.
    ls_site-city = 'Palo Alto'.
    ls_site-staff = 300.
    INSERT ls_site INTO TABLE lt_hashed.
    ls_site-country = 'DE'.
    ls_site-city = 'Berlin'.
    ls_site-staff = 80.
    INSERT ls_site INTO TABLE lt_hashed.
    INSERT ls_site INTO TABLE lt_hashed.
    out->write( |second insert of Berlin: sy-subrc { sy-subrc }, { lines( lt_hashed ) } sites| ).

    READ TABLE lt_hashed INTO ls_site WITH TABLE KEY country = 'US' city = 'Palo Alto'.
    out->write( |{ ls_site-city } has { ls_site-staff } people| ).

    LOOP AT lt_hashed INTO ls_site.
      INSERT ls_site INTO TABLE lt_sorted.
    ENDLOOP.
    LOOP AT lt_sorted INTO ls_site.
      APPEND ls_site-country TO lt_countries.
    ENDLOOP.
    DELETE ADJACENT DUPLICATES FROM lt_countries.
    out->write( |countries: { lines( lt_countries ) }| ).
    LOOP AT lt_countries INTO DATA(lv_country).
      out->write( lv_country ).
    ENDLOOP.

    DATA(lv_big) = COND abap_bool( WHEN lines( lt_hashed ) > 2 THEN abap_true ELSE abap_false ).
    IF lv_big = abap_true EQUIV lines( lt_countries ) > 1.
      out->write( `both or neither` ).
    ENDIF.
    IF NOT ( lines( lt_hashed ) > 5 EQUIV lines( lt_countries ) > 1 ).
      out->write( `exactly one` ).
    ENDIF.

    REFRESH lt_countries.
    out->write( |after REFRESH: { lines( lt_countries ) }| ).
  ENDMETHOD.

ENDCLASS.
