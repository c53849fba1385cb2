*----------------------------------------------------------------------*
***INCLUDE LZSMP_FGF01.
*----------------------------------------------------------------------*

FORM remember USING iv_note TYPE string.
  APPEND |{ gc_prefix }{ gv_calls } { iv_note }| TO gt_history.
ENDFORM.

CLASS lcl_format DEFINITION.
  PUBLIC SECTION.
    CLASS-METHODS bracket
      IMPORTING iv_text        TYPE string
      RETURNING VALUE(rv_text) TYPE string.
ENDCLASS.

CLASS lcl_format IMPLEMENTATION.
  METHOD bracket.
    rv_text = |[{ iv_text }]|.
  ENDMETHOD.
ENDCLASS.
