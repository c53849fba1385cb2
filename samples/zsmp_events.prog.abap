*&---------------------------------------------------------------------*
*& Report ZSMP_EVENTS: the order of the report events.
*&---------------------------------------------------------------------*
REPORT zsmp_events.

DATA gv_trace TYPE string.

LOAD-OF-PROGRAM.
  gv_trace = `load`.

INITIALIZATION.
  gv_trace = |{ gv_trace } > initialization|.

START-OF-SELECTION.
  gv_trace = |{ gv_trace } > start|.
  WRITE / gv_trace.

END-OF-SELECTION.
  gv_trace = |{ gv_trace } > end|.
  WRITE / gv_trace.
