// DefaultInitAllocator: std::allocator whose value-less construct() default-initializes, so that
// resize() of a vector of plain integers leaves the new elements unwritten instead of zeroing
// them first: for buffers that are written right after they grow (PackedInts' packed bytes, a
// JFR slice's sample columns).
// Stateless; any thread.
#pragma once

#include <memory>
#include <new>
#include <utility>

namespace hotlines {

template <class T> struct DefaultInitAllocator : std::allocator<T> {
  using value_type = T;
  template <class U> struct rebind { using other = DefaultInitAllocator<U>; };
  DefaultInitAllocator() = default;
  template <class U> DefaultInitAllocator(const DefaultInitAllocator<U> &) noexcept {}

  template <class U> void construct(U *p) noexcept(noexcept(::new (static_cast<void *>(p)) U)) {
    ::new (static_cast<void *>(p)) U;
  }
  template <class U, class... A> void construct(U *p, A &&...args) {
    std::allocator_traits<std::allocator<T>>::construct(static_cast<std::allocator<T> &>(*this), p,
                                                        std::forward<A>(args)...);
  }
};

} // namespace hotlines
