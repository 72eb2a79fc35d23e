/**
 * Words in a definition that speak to the model over the user's head: telling
 * it to set aside its instructions, to keep something from the user, to take
 * on a new role, or to reach for secrets. A tool's description says what the
 * tool does; none of these belongs in one. Text is compared after hidden
 * characters are dropped and compatibility forms folded (full-width letters
 * are letters), so neither hides a phrase.
 */

interface OverridePhrase {
  readonly pattern: RegExp;
  readonly says: string;
}

const GAP = "[^.!?\\n]{0,60}?";
const INSTRUCTIONS = "(?:instructions?|prompts?|rules|directives|guidelines|guardrails|polic(?:y|ies)|constraints)";

const PHRASES: readonly OverridePhrase[] = [
  {
    pattern: new RegExp(
      `\\b(?:ignore|disregard|forget|override|bypass|overrule|supersede)\\b${GAP}\\b(?:previous|prior|above|earlier|preceding|all|any|other|system|your|existing|original|developer|user'?s?)\\b${GAP}\\b${INSTRUCTIONS}`,
      "u",
    ),
    says: "tells the model to set its instructions aside",
  },
  {
    pattern: new RegExp(`\\b${INSTRUCTIONS}\\b${GAP}\\b(?:no longer apply|are void|do not apply|are cancelled)`, "u"),
    says: "tells the model its instructions no longer apply",
  },
  {
    pattern: /<\s*\/?\s*(?:important|system|instructions?|secret|hidden|admin)\s*>/u,
    says: "carries a pseudo-tag addressed to the model (<IMPORTANT>, <system>, ...)",
  },
  {
    pattern: new RegExp(
      `\\b(?:do not|don'?t|never|without)\\s+(?:tell|telling|inform|informing|mention|mentioning|reveal|revealing|notify|notifying|alert|alerting|show|showing|ask|asking)\\b${GAP}\\b(?:the user|users?|anyone|the human)\\b`,
      "u",
    ),
    says: "tells the model to keep something from the user",
  },
  {
    pattern:
      /\b(?:you are now|from now on,? you|act as (?:an?|the) (?:system|admin|root|developer)|new (?:system )?instructions\s*:|(?:updated|real|actual|true) instructions\s*:)/u,
    says: "gives the model a new role or new instructions",
  },
  {
    pattern: new RegExp(
      `\\b(?:reveal|print|repeat|output|show|leak)\\b${GAP}\\b(?:your|the) (?:system prompt|instructions|initial prompt)`,
      "u",
    ),
    says: "asks the model to reveal its instructions",
  },
  {
    pattern: new RegExp(
      `\\b(?:read|send|include|pass|upload|attach|cat)\\b${GAP}(?:~\\/\\.ssh|id_rsa|\\.ssh\\/|\\.env\\b|\\.aws\\/credentials|\\.netrc|private key|api[_ -]?keys?|passwords?|secrets?\\b|credentials)`,
      "u",
    ),
    says: "asks the model to read or send secrets",
  },
];

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/u;

/** Lower-case, compatibility forms folded, whitespace collapsed. */
export function foldText(text: string): string {
  // Printable ASCII has no compatibility forms: skip the normalisation (most of any definition).
  const plain = PRINTABLE_ASCII.test(text) ? text : text.normalize("NFKC");
  return plain.toLowerCase().replace(/\s+/gu, " ");
}

/** What each phrase found in already folded `text` says (empty for none). */
export function overridePhrases(folded: string): string[] {
  return PHRASES.filter((phrase) => phrase.pattern.test(folded)).map((phrase) => phrase.says);
}
