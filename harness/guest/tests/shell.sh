# Interactive: a shell on the console (make shell). Power off with 'exit'.
. /harness/lib.sh
echo "SLQB guest shell: $(uname -r), allocator $(allocator), $(topology)"
echo "'exit' (or Ctrl-D) powers off; Ctrl-A x kills QEMU."
setsid cttyhack sh -l
exit 0
