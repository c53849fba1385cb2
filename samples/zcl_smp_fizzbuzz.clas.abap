"! FizzBuzz for 1 to 15: DO with sy-index, IF/ELSEIF/ELSE, MOD.
CLASS zcl_smp_fizzbuzz DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
ENDCLASS.



CLASS zcl_smp_fizzbuzz IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA lv_line TYPE string.
    DO 15 TIMES.
      IF sy-index MOD 15 = 0.
        lv_line = `FizzBuzz`.
      ELSEIF sy-index MOD 3 = 0.
        lv_line = `Fizz`.
      ELSEIF sy-index MOD 5 = 0.
        lv_line = `Buzz`.
      ELSE.
        lv_line = |{ sy-index }|.
      ENDIF.
      out->write( lv_line ).
    ENDDO.
  ENDMETHOD.

ENDCLASS.
