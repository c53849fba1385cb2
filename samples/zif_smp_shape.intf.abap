"! A geometric shape: used by ZCL_SMP_SHAPES and its local classes.
INTERFACE zif_smp_shape
  PUBLIC.

  CONSTANTS c_unit TYPE string VALUE `cm`.

  METHODS area
    RETURNING
      VALUE(rv_area) TYPE i.
  METHODS name
    RETURNING
      VALUE(rv_name) TYPE string.
ENDINTERFACE.
