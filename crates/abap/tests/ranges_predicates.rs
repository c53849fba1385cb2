//! Range tables and `IN`, `IS SUPPLIED`, `IS INSTANCE OF`.

use abap::{NoDebugger, Repository, RunError};

const DECL: &str = "    TYPES ty_nums TYPE RANGE OF i.
    METHODS opt IMPORTING a TYPE i OPTIONAL b TYPE i DEFAULT 3
                EXPORTING e TYPE i
                RETURNING VALUE(r) TYPE string.";

const IMPL: &str = "  METHOD opt.
    r = |a { COND #( WHEN a IS SUPPLIED THEN `yes` ELSE `no` ) }|.
    IF b IS NOT SUPPLIED.
      r = |{ r } b no { b }|.
    ELSE.
      r = |{ r } b yes { b }|.
    ENDIF.
    IF e IS SUPPLIED.
      r = |{ r } e yes|.
    ENDIF.
  ENDMETHOD.";

const LOCALS: &str = "INTERFACE lif_pet.
ENDINTERFACE.
CLASS lcl_animal DEFINITION.
ENDCLASS.
CLASS lcl_animal IMPLEMENTATION.
ENDCLASS.
CLASS lcl_dog DEFINITION INHERITING FROM lcl_animal.
  PUBLIC SECTION.
    INTERFACES lif_pet.
ENDCLASS.
CLASS lcl_dog IMPLEMENTATION.
ENDCLASS.
";

fn run(main: &str) -> Result<String, RunError> {
    let src = format!(
        r"CLASS zcl_t DEFINITION PUBLIC FINAL CREATE PUBLIC.
  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
{DECL}
ENDCLASS.

CLASS zcl_t IMPLEMENTATION.
  METHOD if_oo_adt_classrun~main.
{main}
  ENDMETHOD.
{IMPL}
ENDCLASS.
"
    );
    let mut r = Repository::new();
    r.add_file("zcl_t.clas.abap", &src).expect("loads");
    r.add_file("zcl_t.clas.locals_imp.abap", LOCALS)
        .expect("locals load");
    r.run_classrun("ZCL_T", &mut NoDebugger)
}

fn out(main: &str) -> String {
    match run(main) {
        Ok(o) => o,
        Err(e) => panic!("run failed: {e:?}"),
    }
}

#[test]
fn in_range_options_and_signs() {
    let o = out(
        "    DATA r TYPE ty_nums.
    DATA s TYPE string.
    DO 10 TIMES.
      IF sy-index IN r.
        s = s && `+`.
      ENDIF.
    ENDDO.
    out->write( s ).
    r = VALUE #( ( sign = 'I' option = 'BT' low = 2 high = 5 )
                 ( sign = 'I' option = 'EQ' low = 9 )
                 ( sign = 'E' option = 'EQ' low = 4 ) ).
    CLEAR s.
    DO 10 TIMES.
      IF sy-index IN r.
        s = |{ s }{ sy-index }|.
      ENDIF.
    ENDDO.
    out->write( s ).
    r = VALUE #( ( sign = 'E' option = 'LT' low = 8 ) ( sign = 'E' option = 'NB' low = 1 high = 9 ) ).
    CLEAR s.
    DO 10 TIMES.
      IF sy-index NOT IN r.
        CONTINUE.
      ENDIF.
      s = |{ s }{ sy-index }|.
    ENDDO.
    out->write( s ).
    r = VALUE #( ( sign = 'I' option = 'GE' low = 9 ) ( sign = 'I' option = 'LE' low = 1 )
                 ( sign = 'I' option = 'NE' low = 5 ) ( sign = 'E' option = 'GT' low = 3 ) ).
    CLEAR s.
    DO 10 TIMES.
      IF sy-index IN r.
        s = |{ s }{ sy-index }|.
      ENDIF.
    ENDDO.
    out->write( s ).",
    );
    assert_eq!(
        o,
        r"++++++++++
2359
89
123"
    );
}

#[test]
fn range_of_strings_with_patterns_and_where() {
    let o = out("    DATA names TYPE RANGE OF string.
    names = VALUE #( ( sign = 'I' option = 'CP' low = `A*` )
                     ( sign = 'E' option = 'CP' low = `*X` ) ).
    DATA(list) = VALUE string_table( ( `Anna` ) ( `Bob` ) ( `ALEX` ) ( `Ada` ) ).
    DATA n TYPE string.
    LOOP AT list INTO n WHERE table_line IN names.
      out->write( n ).
    ENDLOOP.
    DATA n2 LIKE RANGE OF n.
    n2 = VALUE #( ( sign = 'I' option = 'NP' low = `*a` ) ).
    DATA(cnt) = 0.
    LOOP AT list INTO n.
      IF n IN n2.
        cnt = cnt + 1.
      ENDIF.
    ENDLOOP.
    out->write( |{ cnt }| ).");
    assert_eq!(
        o,
        r"Anna
Ada
2"
    );
}

#[test]
fn is_supplied() {
    let o = out("    out->write( opt( ) ).
    out->write( opt( a = 1 ) ).
    out->write( opt( b = 7 ) ).
    DATA x TYPE i.
    opt( EXPORTING a = 2 IMPORTING e = x ).
    DATA(t) = opt( a = 1 ).
    out->write( t ).");
    assert_eq!(
        o,
        r"a no b no 3
a yes b no 3
a no b yes 7
a yes b no 3"
    );
}

#[test]
fn is_instance_of() {
    let o = out("    DATA a TYPE REF TO lcl_animal.
    DATA s TYPE string.
    IF a IS INSTANCE OF lcl_animal.
      s = `initial is`.
    ELSE.
      s = `initial is not`.
    ENDIF.
    a = NEW lcl_dog( ).
    IF a IS INSTANCE OF lcl_dog AND a IS INSTANCE OF lif_pet AND a IS INSTANCE OF lcl_animal.
      s = s && `, dog is all`.
    ENDIF.
    a = NEW lcl_animal( ).
    IF a IS NOT INSTANCE OF lcl_dog AND a IS NOT INSTANCE OF lif_pet.
      s = s && `, animal is neither`.
    ENDIF.
    out->write( s ).");
    assert_eq!(o, "initial is not, dog is all, animal is neither");
}

#[test]
fn boolean_functions() {
    let o = out("    DATA a TYPE REF TO lcl_animal.
    DATA(x) = xsdbool( a IS BOUND ).
    a = NEW lcl_dog( ).
    DATA(y) = xsdbool( a IS BOUND AND a IS INSTANCE OF lif_pet ).
    DATA(s) = boolc( 1 = 2 ).
    out->write( |[{ x }][{ y }][{ s }] { strlen( s ) }| ).
    IF xsdbool( 3 IN VALUE ty_nums( ( sign = 'I' option = 'BT' low = 1 high = 5 ) ) ) = abap_true.
      out->write( `in` ).
    ENDIF.");
    assert_eq!(o, "[][X][ ] 1\nin");
}

#[test]
fn reference_predicates_on_row_components_in_where() {
    let o = out(
        "    TYPES: BEGIN OF ty_pet,
             name TYPE string,
             ref  TYPE REF TO lcl_animal,
           END OF ty_pet.
    DATA pets TYPE STANDARD TABLE OF ty_pet WITH EMPTY KEY.
    pets = VALUE #( ( name = `rex` ref = NEW lcl_dog( ) ) ( name = `none` ) ( name = `cat` ref = NEW lcl_animal( ) ) ).
    DATA s TYPE string.
    LOOP AT pets INTO DATA(p) WHERE ref IS BOUND.
      s = |{ s } { p-name }|.
    ENDLOOP.
    LOOP AT pets INTO p WHERE ref IS INSTANCE OF lif_pet.
      s = |{ s } pet:{ p-name }|.
    ENDLOOP.
    out->write( s ).",
    );
    assert_eq!(o, " rex cat pet:rex");
}
