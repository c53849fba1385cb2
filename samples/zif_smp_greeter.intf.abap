"! Something that greets: implemented by ZCL_SMP_GREETER directly.
INTERFACE zif_smp_greeter
  PUBLIC.

  METHODS greet
    IMPORTING
      iv_name        TYPE string
    RETURNING
      VALUE(rv_text) TYPE string.
ENDINTERFACE.
