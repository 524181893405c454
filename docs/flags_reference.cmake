# cmake -DPROGRAM=tessera-demo -DOUTPUT=flags.md -P flags_reference.cmake: the flags reference from
# the program's own --tessera_help_markdown, --tessera_help_lb and --tessera_help_transports.
foreach(_what markdown lb transports)
  execute_process(COMMAND ${PROGRAM} --tessera_help_${_what} RESULT_VARIABLE _rc OUTPUT_VARIABLE _out_${_what}
                  ERROR_VARIABLE _err)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "${PROGRAM} --tessera_help_${_what} failed (${_rc}): ${_err}")
  endif()
endforeach()
file(WRITE ${OUTPUT} "# Flags reference

Every flag of a Tessera program, with its default: generated at build time from
`--tessera_help_markdown` (build/docs/flags.md; a test fails when this copy differs). Flags start
with `--tessera_`, are removed from argv before the application parses its own, and take their
value as `--tessera_x=V` or `--tessera_x V`. An unknown `--tessera_` flag or a bad value stops every
rank with one message naming the flag.

${_out_markdown}
## Strategies and their keys (`--tessera_help_lb`)

`--tessera_lb_args` takes these keys as `\"key=value ...\"`; each is checked against its strategy's
list at start-up.

```
${_out_lb}```

## Transports and their keys (`--tessera_help_transports`)

`--tessera_transport_args` takes the chosen transport's keys as `\"key=value ...\"`
(runtime/README.md, \"Transports and adding one\").

```
${_out_transports}```
")
