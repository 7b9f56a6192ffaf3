//! PLACEHOLDER: the generated named character reference table (replaced by the tokenizer work).
