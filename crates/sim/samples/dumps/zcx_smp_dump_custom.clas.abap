"! An exception class of our own, raised and caught by nobody in ZCL_SMP_DUMP_CUSTOM.
CLASS zcx_smp_dump_custom DEFINITION
  PUBLIC
  INHERITING FROM cx_no_check
  CREATE PUBLIC.
ENDCLASS.



CLASS zcx_smp_dump_custom IMPLEMENTATION.
ENDCLASS.
