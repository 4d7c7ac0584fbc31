# The V8 profile readers against real Node runs: the node-shop fixture (TypeScript) copied into
# the build folder, its npm packages installed from package-lock.json (typescript, esbuild,
# @types/node), compiled by tsc and by esbuild with source maps, profiled with `node --cpu-prof`,
# and read by hotlines and by the independent oracle (tests/oracles/cpuprofile_lines.py).
find_program(NODE node)
find_program(NPM npm)
if(NODE AND NPM)
  set(NODE_SHOP ${CMAKE_BINARY_DIR}/node-shop)
  add_test(NAME node.shop_setup
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/node/setup_shop.sh ${HOTLINES_FIXTURES}/node-shop ${NODE_SHOP})
  set_tests_properties(node.shop_setup PROPERTIES FIXTURES_SETUP node_shop TIMEOUT 300 LABELS node
    RESOURCE_LOCK node_shop)
  add_test(NAME node.cpuprofile_oracle
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/node/cpuprofile_oracle_test.sh $<TARGET_FILE:hotlines> ${NODE_SHOP})
  set_tests_properties(node.cpuprofile_oracle PROPERTIES FIXTURES_REQUIRED node_shop TIMEOUT 300
    LABELS node RESOURCE_LOCK node_shop)
else()
  message(WARNING "node/npm not found: the Node profile tests are skipped")
endif()
