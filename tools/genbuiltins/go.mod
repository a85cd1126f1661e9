module kstruct/tools/genbuiltins

go 1.19
