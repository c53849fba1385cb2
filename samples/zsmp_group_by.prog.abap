*&---------------------------------------------------------------------*
*& Report ZSMP_GROUP_BY: LOOP AT … GROUP BY with representative binding,
*& group binding (GROUP SIZE, ASCENDING) and LOOP AT GROUP.
*&---------------------------------------------------------------------*
REPORT zsmp_group_by.

TYPES: BEGIN OF ty_flight,
         carrier TYPE c LENGTH 2,
         city    TYPE string,
         seats   TYPE i,
       END OF ty_flight,
       tt_flights TYPE STANDARD TABLE OF ty_flight WITH EMPTY KEY.

START-OF-SELECTION.
  DATA(gt_flights) = VALUE tt_flights(
    ( carrier = 'LH' city = `Berlin` seats = 120 )
    ( carrier = 'AA' city = `Dallas` seats = 200 )
    ( carrier = 'LH' city = `Munich` seats = 80 )
    ( carrier = 'UA' city = `Denver` seats = 150 )
    ( carrier = 'AA' city = `Boston` seats = 90 ) ).

  " Representative binding: the work area holds the first flight of each carrier.
  LOOP AT gt_flights INTO DATA(gs_flight) GROUP BY gs_flight-carrier.
    WRITE / |{ gs_flight-carrier } starts with { gs_flight-city }:|.
    LOOP AT GROUP gs_flight INTO DATA(gs_member).
      WRITE / |  { gs_member-city } { gs_member-seats }|.
    ENDLOOP.
  ENDLOOP.

  " Group binding, sorted by carrier.
  LOOP AT gt_flights INTO gs_flight
       GROUP BY ( carrier = gs_flight-carrier count = GROUP SIZE ) ASCENDING
       INTO DATA(gs_group).
    DATA(gv_seats) = 0.
    LOOP AT GROUP gs_group INTO gs_member.
      gv_seats = gv_seats + gs_member-seats.
    ENDLOOP.
    WRITE / |{ gs_group-carrier }: { gs_group-count } flights, { gv_seats } seats|.
  ENDLOOP.
