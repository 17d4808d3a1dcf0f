# SLQB's slqb_debug KUnit suite (lib/slqb_debug_kunit.c): every fault it
# makes on purpose must be reported, each with a stack dump; destroying a
# cache with a live object also draws common code's warning.
# expect-log: SLQB slqb_dbg_double: double free
# expect-log: SLQB slqb_dbg_double_z: double free
# expect-log: SLQB slqb_dbg_inside: free of a pointer that is not an object start
# expect-log: SLQB slqb_dbg_redzone: red zone overwritten
# expect-log: SLQB slqb_dbg_uaf: write after free
# expect-log: SLQB slqb_dbg_leak: object .* still allocated at destroy
# expect-log: kmem_cache_destroy slqb_dbg_leak: Slab cache still has objects
# allow-log: Call Trace:
# allow-log: WARNING: .* kmem_cache_destroy
# timeout: 300
. /harness/tests/kunit.sh
