"! Fixture of the MCP tests: a run that ends in a runtime error (a division by zero nobody
"! catches) after writing one line.
CLASS zcl_mcp_dump DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
ENDCLASS.



CLASS zcl_mcp_dump IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA lv_zero TYPE i.
    out->write( |before| ).
    out->write( |{ 1 / lv_zero }| ).
  ENDMETHOD.

ENDCLASS.
