// Which context made each stream, event, module and function the program holds. CUDA ties
// them to it: a launch's function and its stream, an event and the stream it is recorded on,
// and the two events of an elapsed time must belong to one context, or the driver answers
// CUDA_ERROR_INVALID_HANDLE (measured on an H200:
// tests/750_runtime/programs/driver_context_streams.cu). Work on another context's stream
// is allowed (synchronising it, copies, memsets). Handles not noted here belong to no
// context and are never refused: the runtime's registered kernels (they are loaded into
// whichever context launches them), library kernels and the special streams (null,
// CU_STREAM_LEGACY, CU_STREAM_PER_THREAD), which stand for the current context's.
#pragma once

namespace warpsim::runtime::driver {

// Records `handle` as made by the context current on this thread (the primary context
// once the runtime API has been used); a handle destroyed and handed out again is noted
// anew.
void note_owner(const void* handle);
// Records `handle` as made by `ctx`.
void note_owner(const void* handle, void* ctx);
// Records a module's function as made by the module's context; forgetting the module
// forgets its functions.
void note_function(const void* function, const void* module);
// The context that made `handle`; null when it was not noted or was forgotten.
void* owner_of(const void* handle);
// Called when the program destroys `handle` (a module: its functions too).
void forget_owner(const void* handle);
// The context a stream argument stands for: its maker, or the current context for the
// special streams (and streams not noted).
void* stream_context(const void* stream);
// CUDA_ERROR_INVALID_HANDLE, naming `call` and both handles' roles, when `a` and `b`
// belong to different contexts (a context of null: not checked).
void require_same_context(const void* a_ctx, const char* a_what, const void* b_ctx, const char* b_what,
                          const char* call);

}  // namespace warpsim::runtime::driver
