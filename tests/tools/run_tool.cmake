# Runs a command-line tool (lz-dump, lz-bench) and checks its exit status and
# output (stdout and stderr together); PASS_REGULAR_EXPRESSION alone would
# ignore the exit status.
# Arguments: EXE, ARGS (space-separated), optional STDIN (a file fed to
# stdin), RC (expected exit status), EXPECT and optional EXPECT2 (regexes
# the output must match).
separate_arguments(args UNIX_COMMAND "${ARGS}")
if(DEFINED STDIN)
  execute_process(COMMAND "${EXE}" ${args} INPUT_FILE "${STDIN}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
else()
  execute_process(COMMAND "${EXE}" ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
endif()
set(all "${out}${err}")
get_filename_component(tool "${EXE}" NAME)
if(NOT rc STREQUAL "${RC}")
  message(FATAL_ERROR "${tool} ${ARGS}: exit status ${rc}, expected ${RC}\n${all}")
endif()
foreach(regex IN ITEMS "${EXPECT}" "${EXPECT2}")
  if(NOT regex STREQUAL "" AND NOT all MATCHES "${regex}")
    message(FATAL_ERROR "${tool} ${ARGS}: output does not match '${regex}'\n${all}")
  endif()
endforeach()
message(STATUS "${all}")
