"! Secondary table keys: a standard table of books with a sorted key by price and a hashed
"! key by ISBN; LOOP … USING KEY, READ TABLE … WITH KEY … COMPONENTS and table expressions.
CLASS zcl_smp_secondary_keys DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.

    TYPES: BEGIN OF ty_book,
             isbn  TYPE c LENGTH 4,
             title TYPE string,
             price TYPE p LENGTH 6 DECIMALS 2,
           END OF ty_book,
           tt_books TYPE STANDARD TABLE OF ty_book WITH EMPTY KEY
             WITH NON-UNIQUE SORTED KEY by_price COMPONENTS price
             WITH UNIQUE HASHED KEY by_isbn COMPONENTS isbn.

ENDCLASS.



CLASS zcl_smp_secondary_keys IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA(lt_books) = VALUE tt_books(
      ( isbn = '0003' title = `Refactoring`     price = '47.50' )
      ( isbn = '0001' title = `Clean ABAP`      price = '29.90' )
      ( isbn = '0002' title = `Domain Modeling` price = '52.00' )
      ( isbn = '0004' title = `ABAP Objects`    price = '29.90' ) ).

    out->write( `By price:` ).
    LOOP AT lt_books INTO DATA(ls_book) USING KEY by_price.
      out->write( |{ sy-tabix }. { ls_book-title } { ls_book-price }| ).
    ENDLOOP.

    READ TABLE lt_books INTO ls_book WITH KEY by_price COMPONENTS price = '29.90'.
    out->write( |cheapest: { ls_book-title } (subrc { sy-subrc }, tabix { sy-tabix })| ).
    READ TABLE lt_books TRANSPORTING NO FIELDS WITH KEY by_price COMPONENTS price = '50.00'.
    out->write( |50.00 would go at { sy-tabix } (subrc { sy-subrc })| ).

    READ TABLE lt_books INTO ls_book WITH TABLE KEY by_isbn COMPONENTS isbn = '0002'.
    out->write( |0002: { ls_book-title } (tabix { sy-tabix })| ).
    out->write( |0003: { lt_books[ KEY by_isbn isbn = '0003' ]-title }| ).
  ENDMETHOD.

ENDCLASS.
