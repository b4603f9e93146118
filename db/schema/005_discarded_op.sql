-- Version 4: dead compute, recorded by `profile --activations`: ops whose results the model throws away
-- because they flow only into a multiplication by an all-zero parameter or constant (ReZero with alpha 0,
-- LayerScale with gamma 0, a zeroed LoRA B), and those multiplications themselves.

CREATE TABLE discarded_op (
  op_id INTEGER NOT NULL REFERENCES op(id),          -- an outermost op whose result is discarded; equal to zeroing_op_id for the multiplication itself
  zeroing_op_id INTEGER NOT NULL REFERENCES op(id),  -- the op that multiplies by the all-zero factor
  zero_factor TEXT NOT NULL                          -- what is zero: a parameter or buffer name, 'constant' or 'scalar 0'
);

CREATE INDEX discarded_op_by_zeroing_op ON discarded_op(zeroing_op_id);
