import { EmbeddingError } from './errors.js';

/** Token ids of one text, with [CLS] and [SEP], truncated to the model's limit. */
export interface Encoding {
  ids: number[];
}

/** Turns text into the token ids a BERT-family model expects. */
export interface Tokenizer {
  encode(text: string, maxTokens: number): Encoding;
}

interface TokenizerJson {
  normalizer?: { type?: string; lowercase?: boolean; strip_accents?: boolean | null } | null;
  pre_tokenizer?: { type?: string } | null;
  model?: {
    type?: string;
    vocab?: Record<string, number>;
    unk_token?: string;
    continuing_subword_prefix?: string;
    max_input_chars_per_word?: number;
  };
}

/**
 * A WordPiece tokenizer read from a Hugging Face `tokenizer.json` (BertNormalizer +
 * BertPreTokenizer + WordPiece: what all-MiniLM-L6-v2 and most BERT sentence models use).
 * Other tokenizer kinds are refused with `model_invalid` rather than tokenized wrongly.
 */
export function wordPieceTokenizer(json: string): Tokenizer {
  let config: TokenizerJson;
  try {
    config = JSON.parse(json) as TokenizerJson;
  } catch (error) {
    throw new EmbeddingError('model_invalid', 'tokenizer.json is not JSON', { cause: error });
  }
  const model = config.model;
  if (model?.type !== 'WordPiece' || !model.vocab) {
    throw new EmbeddingError(
      'model_invalid',
      `tokenizer.json uses a ${model?.type ?? 'missing'} model; only WordPiece (BERT-family) tokenizers are supported`,
    );
  }
  const vocab = new Map(Object.entries(model.vocab));
  const special = (token: string) => {
    const id = vocab.get(token);
    if (id === undefined) throw new EmbeddingError('model_invalid', `tokenizer has no ${token}`);
    return id;
  };
  const unk = special(model.unk_token ?? '[UNK]');
  const cls = special('[CLS]');
  const sep = special('[SEP]');
  const prefix = model.continuing_subword_prefix ?? '##';
  const maxChars = model.max_input_chars_per_word ?? 100;
  const lowercase = config.normalizer?.lowercase ?? true;
  const stripAccents = config.normalizer?.strip_accents ?? lowercase;

  const wordPiece = (word: string, out: number[]) => {
    const chars = [...word];
    if (chars.length > maxChars) {
      out.push(unk);
      return;
    }
    const pieces: number[] = [];
    let start = 0;
    while (start < chars.length) {
      let end = chars.length;
      let found: number | undefined;
      while (start < end) {
        const piece = (start > 0 ? prefix : '') + chars.slice(start, end).join('');
        found = vocab.get(piece);
        if (found !== undefined) break;
        end--;
      }
      if (found === undefined) {
        out.push(unk);
        return;
      }
      pieces.push(found);
      start = end;
    }
    out.push(...pieces);
  };

  return {
    encode(text, maxTokens) {
      const ids: number[] = [];
      const limit = Math.max(0, maxTokens - 2);
      for (const word of preTokenize(normalizeText(text, lowercase, stripAccents))) {
        wordPiece(word, ids);
        if (ids.length >= limit) break;
      }
      ids.length = Math.min(ids.length, limit);
      return { ids: [cls, ...ids, sep] };
    },
  };
}

const CONTROL = /[\p{Cc}\p{Cf}]/u;
const WHITESPACE = /\s/u;
const MARK = /\p{Mn}/u;
const PUNCT = /[\p{P}!-/:-@[-`{-~]/u;

/** BertNormalizer: drop control characters, spaces around CJK ideographs, lowercase, strip accents. */
function normalizeText(text: string, lowercase: boolean, stripAccents: boolean): string {
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp === 0 || cp === 0xfffd) continue;
    if (WHITESPACE.test(ch)) {
      out += ' ';
      continue;
    }
    if (CONTROL.test(ch)) continue;
    out += isCjk(cp) ? ` ${ch} ` : ch;
  }
  if (lowercase) out = out.toLowerCase();
  if (stripAccents) out = [...out.normalize('NFD')].filter((ch) => !MARK.test(ch)).join('');
  return out;
}

/** BertPreTokenizer: split on whitespace; every punctuation character is its own word. */
function preTokenize(text: string): string[] {
  const words: string[] = [];
  let word = '';
  for (const ch of text) {
    if (WHITESPACE.test(ch)) {
      if (word) words.push(word);
      word = '';
    } else if (PUNCT.test(ch)) {
      if (word) words.push(word);
      words.push(ch);
      word = '';
    } else {
      word += ch;
    }
  }
  if (word) words.push(word);
  return words;
}

function isCjk(cp: number): boolean {
  return (
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x20000 && cp <= 0x2a6df) ||
    (cp >= 0x2a700 && cp <= 0x2b73f) ||
    (cp >= 0x2b740 && cp <= 0x2b81f) ||
    (cp >= 0x2b820 && cp <= 0x2ceaf) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0x2f800 && cp <= 0x2fa1f)
  );
}
