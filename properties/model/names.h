// The spec's names as the model, its ledger and the checker use them: the one spelling is
// sim/spec_names.h (below the reports and the call-effects decoder as well); these are
// its names in the model's namespace, not a second copy.
#pragma once

#include "sim/spec_names.h"

namespace trafikey::properties::model {

using sim::spec::active_key;
using sim::spec::dead_key;
using sim::spec::done_key;
using sim::spec::EmqVerb;
using sim::spec::parse_row_key;
using sim::spec::parse_state;
using sim::spec::pending_key;
using sim::spec::pending_key_queue;
using sim::spec::queue_name_ok;
using sim::spec::QueueNames;
using sim::spec::row_key;
using sim::spec::RowKeyParts;
using sim::spec::RowName;
using sim::spec::seq_key;
using sim::spec::set_key_queue;
using sim::spec::state_name;
using sim::spec::transition_name;
using sim::spec::verb_name;
using sim::spec::verb_of;

}  // namespace trafikey::properties::model
