// A core header that includes a module above core: the layering check must
// reject this tree (CTest: layering_rejects_a_wrong_include). Never compiled.
#pragma once
#include "lazy/trace.h"
