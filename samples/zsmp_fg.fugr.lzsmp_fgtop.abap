FUNCTION-POOL zsmp_fg.                     "MESSAGE-ID ..

" The group's global data: it lives as long as the program that called the group.
DATA gv_calls TYPE i.
DATA gt_history TYPE STANDARD TABLE OF string WITH EMPTY KEY.
CONSTANTS gc_prefix TYPE string VALUE `#`.
