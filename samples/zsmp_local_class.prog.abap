*&---------------------------------------------------------------------*
*& Report ZSMP_LOCAL_CLASS: a local class used from START-OF-SELECTION.
*&---------------------------------------------------------------------*
REPORT zsmp_local_class.

CLASS lcl_temperature DEFINITION.
  PUBLIC SECTION.
    TYPES ty_degrees TYPE p LENGTH 8 DECIMALS 2.
    CLASS-METHODS to_fahrenheit
      IMPORTING
        iv_celsius           TYPE ty_degrees
      RETURNING
        VALUE(rv_fahrenheit) TYPE ty_degrees.
ENDCLASS.

CLASS lcl_temperature IMPLEMENTATION.
  METHOD to_fahrenheit.
    rv_fahrenheit = iv_celsius * 9 / 5 + 32.
  ENDMETHOD.
ENDCLASS.

DATA gv_celsius TYPE p LENGTH 5 DECIMALS 1.
DATA gv_fahrenheit TYPE p LENGTH 6 DECIMALS 1.

START-OF-SELECTION.
  gv_celsius = '-10.0'.
  DO 3 TIMES.
    gv_fahrenheit = lcl_temperature=>to_fahrenheit( gv_celsius ).
    WRITE / |{ gv_celsius } C = { gv_fahrenheit } F|.
    gv_celsius = gv_celsius + '18.5'.
  ENDDO.
