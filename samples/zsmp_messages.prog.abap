*&---------------------------------------------------------------------*
*& Report ZSMP_MESSAGES: MESSAGE with text and with a message class.
*&---------------------------------------------------------------------*
REPORT zsmp_messages.

DATA gv_count TYPE i VALUE 2.

START-OF-SELECTION.
  WRITE / 'before'.
  MESSAGE 'Plain information' TYPE 'I'.
  MESSAGE s001(zsmp) WITH gv_count 'items'.
  WRITE / 'after'.
