// Forward or backward: the direction of an operation with a gradient (activation, softmax, ...).
#pragma once

namespace librednn {

enum class Direction { forward, backward };

// "fwd" / "bwd", as problem strings spell them.
inline const char *direction_name(Direction direction) { return direction == Direction::forward ? "fwd" : "bwd"; }

}  // namespace librednn
