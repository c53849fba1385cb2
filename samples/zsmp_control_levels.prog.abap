*&---------------------------------------------------------------------*
*& Report ZSMP_CONTROL_LEVELS: AT FIRST / AT NEW / AT END OF / AT LAST
*& with SUM in a LOOP over a sorted table.
*&---------------------------------------------------------------------*
REPORT zsmp_control_levels.

TYPES: BEGIN OF ty_booking,
         carrier TYPE c LENGTH 2,
         flight  TYPE n LENGTH 4,
         seats   TYPE i,
         revenue TYPE p LENGTH 8 DECIMALS 2,
       END OF ty_booking.

DATA gt_bookings TYPE SORTED TABLE OF ty_booking WITH NON-UNIQUE KEY carrier flight.
DATA gs_booking TYPE ty_booking.

START-OF-SELECTION.
  gt_bookings = VALUE #(
    ( carrier = 'LH' flight = '0400' seats = 2 revenue = '800.00' )
    ( carrier = 'AA' flight = '0017' seats = 1 revenue = '350.50' )
    ( carrier = 'LH' flight = '0400' seats = 3 revenue = '1200.00' )
    ( carrier = 'LH' flight = '2402' seats = 1 revenue = '99.99' )
    ( carrier = 'AA' flight = '0064' seats = 4 revenue = '1600.00' ) ).

  LOOP AT gt_bookings INTO gs_booking.
    AT FIRST.
      WRITE / |Bookings (carrier/flight masked: { gs_booking-carrier }/{ gs_booking-flight })|.
    ENDAT.
    AT NEW carrier.
      WRITE / |Carrier { gs_booking-carrier }, flight shown as { gs_booking-flight }|.
    ENDAT.
    WRITE / |  { gs_booking-flight }: { gs_booking-seats } seats|.
    AT END OF flight.
      SUM.
      WRITE / |  flight { gs_booking-flight } total: { gs_booking-seats } seats, { gs_booking-revenue }|.
    ENDAT.
    AT END OF carrier.
      SUM.
      WRITE / |Carrier { gs_booking-carrier } total: { gs_booking-revenue }|.
    ENDAT.
    AT LAST.
      SUM.
      WRITE / |All carriers: { gs_booking-seats } seats, { gs_booking-revenue }|.
    ENDAT.
  ENDLOOP.
