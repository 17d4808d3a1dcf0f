# SLQB's slqb_debug KUnit suite (lib/slqb_debug_kunit.c): every fault it
# makes on purpose must be reported, each with a stack dump, in its own
# cache (slqb_dbg_*): the headline, then the object set aside or the free not
# done; destroying a cache with a live object reports the object, the count
# left, and draws common code's warning. The reports taint the kernel B, the
# warning W, the suite N. Any other SLQB report fails the boot.
# expect-log: SLQB slqb_dbg_double: double free in object 0x
# expect-log: SLQB slqb_dbg_double_z: double free in object 0x
# expect-log: SLQB slqb_dbg_inside: free of a pointer that is not an object start in object 0x
# expect-log: SLQB slqb_dbg_redzone: red zone overwritten .*in object 0x
# expect-log: SLQB slqb_dbg_uaf: write after free \(poison overwritten\) in object 0x
# expect-log: SLQB slqb_dbg_(double|double_z|redzone|uaf): object 0x[^ ]+ set aside, not reused
# expect-log: SLQB slqb_dbg_inside: the free of 0x[^ ]+ was not done
# expect-log: SLQB slqb_dbg_leak: object 0x[^ ]+ still allocated at destroy
# expect-log: SLQB slqb_dbg_leak: [0-9]+ objects remain in [0-9]+ slabs at destroy
# expect-log: kmem_cache_destroy slqb_dbg_leak: Slab cache still has objects
# allow-log: Call Trace:
# allow-log: WARNING: .* kmem_cache_destroy
# expect-taint: BNW
# timeout: 300
. /harness/tests/kunit.sh
