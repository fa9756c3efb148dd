// UndoLog: how the world takes the live keyspace back to an earlier point of its write
// stream, for a restart that loses writes or a failover to a lagging replica.
//
// Before each write changes the keyspace, the keyspace tells the log what the write
// overwrites (one entry per hash field or zset member, one per whole key for INCR, SET and
// DEL). Positions count entries since the log was last cleared; rewind(p) undoes the
// entries after p newest first, which gives back exactly the keyspace as of p, hash field
// order included (a new field is always the last one when its entry is undone; a deleted
// field goes back to its index). A copy that cannot go back further than p lets the log
// forget the entries before p.
//
// Why not a checkpoint plus a replay of the writes since: a restart or a failover then
// copied the whole keyspace, and every write was copied twice. Undoing costs only the
// writes lost, and the recorded bytes share one buffer.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/keyspace.h"

namespace trafikey::sim {

class UndoLog {
 public:
  UndoLog();

  // ---- told by the keyspace (Keyspace::set_journal) before a write changes anything
  // A hash field written (its new value `now`) or deleted (`now` null): its old value
  // (null: the field is new) and index.
  void field(std::string_view key, std::string_view field, const std::string* old, std::size_t index,
             const std::string_view* now);
  // A zset member added or re-scored (its new score `now`) or removed (`now` null): its old
  // score (null: the member is new).
  void member(std::string_view key, std::string_view member, const double* old_score, const double* now);
  // A whole key written or deleted, by `op`: its old value (null: the key is new); SET's
  // new value `now`.
  enum class WholeOp : std::uint8_t { incr, set, del };
  void whole(std::string_view key, const Keyspace::Value* old, WholeOp op, std::string_view now = {});

  // ---- what the writes made, for a comparison of two keyspaces (the invariant checker's
  // verb.model): while on, each entry also keeps what its write made (the field's new
  // value or its deletion, the member's new score or its removal, which whole-key
  // operation and SET's value). Off by default: a world nobody compares pays nothing.
  void keep_new_values(bool on) { keep_new_ = on; }
  bool keeps_new_values() const { return keep_new_; }
  // Whether the entries after `from` here and after `other_from` in `other` are the same
  // writes: as many, each of the same kind on the same key and name making the same thing
  // (both logs kept new values for all of them). Two keyspaces that were equal at those
  // positions are then equal again: the same writes applied to the same values (INCR
  // included) give the same values. False when either log cannot tell.
  bool same_writes_since(std::int64_t from, const UndoLog& other, std::int64_t other_from) const;

  std::int64_t position() const { return base_ + static_cast<std::int64_t>(entries_.size()); }
  // The oldest position rewind() may still go back to.
  std::int64_t oldest() const { return base_ + static_cast<std::int64_t>(head_); }
  // Undoes every entry after `to` (oldest() <= to <= position()).
  void rewind(Keyspace& data, std::int64_t to);
  // No rewind will go back before `to`: the entries before it are dropped.
  void forget_before(std::int64_t to);
  // Empties the log; positions start again at 0 (the keyspace was emptied too).
  void clear();

  // ---- read: which keys the writes after a position touched (the invariant checker
  // judges only those after a call). What an entry wrote: a hash field, a zset member, or
  // a whole key (INCR, SET, DEL; its name is empty).
  enum class Wrote : std::uint8_t { field, member, key };
  // Calls f(wrote, key, name) for each entry after `from`, oldest first, and answers
  // true; false (and no call) when the entries since `from` are not all held: `from` is
  // before oldest() or after position() (the log was cleared since).
  template <class F>
  bool each_since(std::int64_t from, F&& f) const {
    return each_made_since(from, [&](Wrote wrote, std::string_view key, std::string_view name,
                                     const std::string_view*) { f(wrote, key, name); });
  }
  // The same with what a field's write made: f(wrote, key, name, now), `now` the field's
  // new value, null when the write deleted it, was not of a field, or was not kept
  // (keep_new_values off).
  template <class F>
  bool each_made_since(std::int64_t from, F&& f) const {
    if (from < oldest() || from > position()) return false;
    for (auto i = static_cast<std::size_t>(from - base_); i < entries_.size(); ++i) {
      const Entry& e = entries_[i];
      const Wrote wrote = e.kind == Entry::Kind::field    ? Wrote::field
                          : e.kind == Entry::Kind::member ? Wrote::member
                                                          : Wrote::key;
      std::string_view now;
      const bool made = e.kind == Entry::Kind::field && e.kept_new && !e.removed;
      if (made) now = view(e.now);
      f(wrote, view(e.key), view(e.name), made ? &now : nullptr);
    }
    return true;
  }

 private:
  struct Span {
    std::uint32_t offset = 0, size = 0;
  };
  struct Entry {
    enum class Kind : std::uint8_t { field, member, key };
    Kind kind = Kind::field;
    bool existed = false;   // the field, member or key was there before the write
    // What the write made (keep_new_values): kept; the field or member deleted; which
    // whole-key operation (a WholeOp).
    bool kept_new = false, removed = false;
    WholeOp op = WholeOp::incr;
    std::uint32_t begin = 0;  // bytes_ held before this entry (its own bytes start here)
    Span key, name;           // name: field or member
    // What each kind keeps in the same bytes: a field its old value and its new one; a
    // member its old score and its new one; a key SET's new value.
    union {
      Span value;             // field: its old value
      double new_score;       // member: its new score
    };
    union {
      double score = 0;       // member: its old score
      Span now;               // field, key (SET): the new value
    };
    std::uint32_t index = 0;  // field: its position in the hash
    std::int32_t whole = -1;  // key: index of the old value in wholes_
    Entry() : value{} {}
  };

  Span keep(std::string_view bytes);
  // Appends an entry of `kind` with its key and name kept (its own bytes begin here); the
  // reference lasts until the next entry.
  Entry& start(Entry::Kind kind, std::string_view key, std::string_view name);
  Span keep_key(std::string_view key);  // shares the last entry's key when it is the same
  std::string_view view(Span s) const { return std::string_view(bytes_.data() + s.offset, s.size); }
  void undo(Keyspace& data, const Entry& e);
  void compact();

  // An append-only byte buffer. Every write keeps a key and a name or two, mostly under 32
  // bytes: copied inline by words, where std::string::append ends in a libc memcpy call.
  class Bytes {
   public:
    std::size_t size() const { return size_; }
    const char* data() const { return data_.get(); }
    void reserve(std::size_t n);
    void append(std::string_view s);
    void truncate(std::size_t n) { size_ = n; }  // n <= size()

   private:
    std::unique_ptr<char[]> data_;
    std::size_t size_ = 0, capacity_ = 0;
  };

  Bytes bytes_;  // every recorded key, name and value, in entry order
  std::vector<Entry> entries_;
  std::vector<std::optional<Keyspace::Value>> wholes_;  // old values of whole keys
  std::size_t head_ = 0;     // entries_[0, head_) are forgotten
  std::int64_t base_ = 0;    // the position of entries_[0]
  bool keep_new_ = false;    // keep_new_values
};

}  // namespace trafikey::sim
