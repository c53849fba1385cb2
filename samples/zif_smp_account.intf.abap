"! An account: constants, a static counter, an instance attribute and methods; the
"! implementing class ZCL_SMP_ALIASES reaches them through aliases.
INTERFACE zif_smp_account
  PUBLIC.

  CONSTANTS c_currency TYPE c LENGTH 3 VALUE 'EUR'.
  CLASS-DATA gv_opened TYPE i.
  DATA mv_owner TYPE string.

  METHODS deposit
    IMPORTING
      iv_amount     TYPE i
    RETURNING
      VALUE(rv_new) TYPE i.
  METHODS balance
    RETURNING
      VALUE(rv_balance) TYPE i.
ENDINTERFACE.
