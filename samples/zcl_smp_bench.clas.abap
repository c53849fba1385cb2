"! Loop-heavy arithmetic for the debug-hook benchmark (crates/sim/examples/bench_hook.rs).
CLASS zcl_smp_bench DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.

ENDCLASS.



CLASS zcl_smp_bench IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA lv_sum TYPE i.
    DATA lv_x TYPE i.
    DO 200000 TIMES.
      lv_x = sy-index MOD 7.
      lv_sum = lv_sum + lv_x * 3 - 2.
    ENDDO.
    out->write( |Checksum: { lv_sum }| ).
  ENDMETHOD.

ENDCLASS.
