"! Constants shared by ZCL_SMP_ORDER: limits of an order.
INTERFACE zif_smp_limits
  PUBLIC.

  CONSTANTS c_max_quantity TYPE i VALUE 10.
  CONSTANTS c_currency TYPE string VALUE `EUR`.
ENDINTERFACE.
