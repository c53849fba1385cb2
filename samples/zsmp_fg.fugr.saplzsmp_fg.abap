*******************************************************************
*   System-defined Include-files.                                 *
*******************************************************************
  INCLUDE lzsmp_fgtop.                       " Global Declarations
  INCLUDE lzsmp_fguxx.                       " Function Modules

*******************************************************************
*   User-defined Include-files (if necessary).                    *
*******************************************************************
  INCLUDE lzsmp_fgf01.                       " Subroutines and local classes
