# --junit as CI reads it: campaign, merge and scenario write XML that xmllint validates
# against cli/tests/junit.xsd; one case per invariant (campaign) or per file (scenario); a
# failing scenario's case carries what broke and the rerun command, its text escaped.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
function(valid file)
  execute_process(COMMAND xmllint --noout --schema ${XSD} ${file} RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${file} is not valid against junit.xsd:\n${err}")
  endif()
endfunction()

execute_process(COMMAND ${SIM} campaign --runs 30 --seed 3 --out ${WORK}/c --junit ${WORK}/campaign.xml
                RESULT_VARIABLE rc OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "campaign --junit exited ${rc}:\n${out}")
endif()
valid(${WORK}/campaign.xml)
file(READ ${WORK}/campaign.xml xml)
string(REGEX MATCHALL "<testcase " cases "${xml}")
list(LENGTH cases n)
if(n LESS 10 OR NOT xml MATCHES "failures=\"0\"" OR NOT xml MATCHES "name=\"queue.conserve\"")
  message(FATAL_ERROR "campaign --junit: expected one passing case per invariant:\n${xml}")
endif()
# what no run on the sim judges (a sim campaign compares with no real server) is skipped,
# never a pass; what every run judges is not
if(NOT xml MATCHES "name=\"sim.differential\"[^>]*>[^<]*<skipped"
   OR xml MATCHES "name=\"queue.conserve\"[^>]*>[^<]*<skipped")
  message(FATAL_ERROR "campaign --junit: sim.differential should be skipped, queue.conserve not:\n${xml}")
endif()

# A scenario that fails on a reply with markup in it, one that passes, one that does not parse.
file(WRITE ${WORK}/fails.scn "scenario \"a <failing> & 'quoted' one\"\nat 0  p: EMQ.ADD orders j1 \"<x & y>\"  => 7\n")
file(WRITE ${WORK}/broken.scn "scenario \"broken\"\nat zero p: PING => PONG\n")
execute_process(COMMAND ${SIM} scenario ${SRC}/scenarios/verbs/add.scn ${WORK}/fails.scn ${WORK}/broken.scn
                        --junit ${WORK}/scenario.xml
                RESULT_VARIABLE rc OUTPUT_VARIABLE out)
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "scenario with an unparseable file: expected exit 2, got ${rc}:\n${out}")
endif()
valid(${WORK}/scenario.xml)
file(READ ${WORK}/scenario.xml xml)
foreach(expect "tests=\"3\" failures=\"2\""
               "name=\"${SRC}/scenarios/verbs/add.scn\" classname=\"scenario\" time=\"[0-9.]+\"/>"
               "fails.scn:2"
               "&lt;x &amp; y&gt;"
               "rerun with:&#10;  trafikey-sim scenario ${WORK}/fails.scn"
               "type=\"parse\"")
  if(NOT xml MATCHES "${expect}")
    message(FATAL_ERROR "scenario --junit: '${expect}' not found in:\n${xml}")
  endif()
endforeach()
