// Facade for the sharding model.
#pragma once
#include "axis_ref.h"
#include "dimension_sharding.h"
#include "mesh.h"
#include "op_sharding_rule.h"
#include "tensor_sharding.h"
