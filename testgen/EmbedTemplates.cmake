# Writes the template files given as INPUTS into OUTPUT as C++ initialisers
#   {"NAME", R"aot_tmpl(TEXT)aot_tmpl"},
# one per file (NAME: the file name), for Template.cpp to #include, so the
# installed aot-testgen needs no data files. Run by the build:
#   cmake -DOUTPUT=Templates.inc "-DINPUTS=a.tmpl;b.tmpl" -P EmbedTemplates.cmake
if(NOT OUTPUT OR NOT INPUTS)
  message(FATAL_ERROR "EmbedTemplates.cmake: set OUTPUT and INPUTS")
endif()

set(delimiter "aot_tmpl")
set(content "// Generated from testgen/templates by EmbedTemplates.cmake; do not edit.\n")
foreach(input IN LISTS INPUTS)
  get_filename_component(name ${input} NAME)
  file(READ ${input} text)
  string(FIND "${text}" ")${delimiter}\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${input} contains ')${delimiter}\"', which ends the raw string literal it is embedded in")
  endif()
  string(APPEND content "{\"${name}\", R\"${delimiter}(${text})${delimiter}\"},\n")
endforeach()

# Rewritten only on change, so that touching the script alone rebuilds nothing.
if(EXISTS ${OUTPUT})
  file(READ ${OUTPUT} old)
  if(old STREQUAL content)
    return()
  endif()
endif()
file(WRITE ${OUTPUT} "${content}")
