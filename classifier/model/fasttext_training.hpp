// fastText's supervised training (FastText::train of libfasttext 0.9.2 with one thread), without the two
// costs that dominate a fit on a corpus of a few hundred issues: a 30-million-entry word table built for
// every fit, and every word of the input read and looked up again in every epoch. The model it trains is
// byte for byte the one fastText's own train writes (a test holds the two side by side).
#pragma once

#include <fasttext/fasttext.h>

#include <functional>

namespace faultline::model {

// Trains on args.input (args.thread must be 1) and hands the trained model to `use` while it is alive.
void train_supervised(const fasttext::Args& args, const std::function<void(const fasttext::FastText&)>& use);

}  // namespace faultline::model
