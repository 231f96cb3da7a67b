# Control builds for test_oracles: a reproducer's buggy harness with its bug's trigger removed by a build
# flag, so the test can show that the harness's verdict follows what the compiler did.

# fma-contraction-orientation's buggy host harness with contraction off: a*d - b*c stays two rounded products.
set(fma_dir ${CMAKE_SOURCE_DIR}/kernels/fma-contraction-orientation)
add_executable(oracle_control_fma_buggy_no_contraction ${fma_dir}/host.cpp)
target_compile_definitions(oracle_control_fma_buggy_no_contraction PRIVATE FAULTLINE_FIXED=0)
target_include_directories(oracle_control_fma_buggy_no_contraction PRIVATE ${fma_dir} ${CMAKE_SOURCE_DIR}/kernels/common)
target_compile_options(oracle_control_fma_buggy_no_contraction PRIVATE -Wall -Wextra -O2 -ffp-contract=off)
set_target_properties(oracle_control_fma_buggy_no_contraction PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)

faultline_test(test_oracles SOURCES reproducers/test_oracles.cpp LIBS faultline_reproducers)
if(FAULTLINE_HAVE_CUDA)
  target_compile_definitions(test_oracles PRIVATE FAULTLINE_NVCC="${CMAKE_CUDA_COMPILER}")
else()
  target_compile_definitions(test_oracles PRIVATE FAULTLINE_NVCC="")
endif()
add_dependencies(test_oracles oracle_control_fma_buggy_no_contraction)
foreach(id bool-index-after-swap barrier-idle-peer-hang causal-mask-corner cxx11-abi-mismatch
           fma-contraction-orientation group-size-dispatch int16-bound-overflow missing-capability-check
           ptx-version-mismatch smem-stages-overflow symbol-version-skew tf32-vs-fp32-reference)
  add_dependencies(test_oracles repro_${id}_buggy_host repro_${id}_fixed_host)
endforeach()
if(TARGET repro_constexpr-recompile_buggy_host)  # only where NVRTC was found
  add_dependencies(test_oracles repro_constexpr-recompile_buggy_host repro_constexpr-recompile_fixed_host)
endif()
