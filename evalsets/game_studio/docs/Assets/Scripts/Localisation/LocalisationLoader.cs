using System;
using System.Collections.Generic;
using System.IO;
using System.Text;
using Fernhollow.Cinderglass.Data;
using UnityEngine;

namespace Fernhollow.Cinderglass.Localisation
{
    /// <summary>
    /// Loads Localisation/strings.csv (one row per key, one column per language) and resolves
    /// keys for the current language.
    /// </summary>
    public class LocalisationLoader
    {
        public const string RelativePath = "Localisation/strings.csv";
        public const string FallbackLanguage = "en";

        // pt-BR has a column in strings.csv but stays switched off until the vendor's review is done.
        public static readonly string[] SupportedLanguages = { "en", "fr", "de", "es", "ja" };

        private readonly Dictionary<string, string[]> _rows = new Dictionary<string, string[]>();
        private readonly HashSet<string> _reportedMissing = new HashSet<string>();
        private string[] _header;
        private int _column;
        private int _fallbackColumn;

        public string Language { get; private set; }

        /// <summary>
        /// Picks the language to use. "auto", the shipped default in default_settings.ini, follows
        /// the operating system's language when we ship it and falls back to English otherwise.
        /// </summary>
        public static string ResolveLanguage(string setting)
        {
            string wanted = setting == "auto" ? ToCode(Application.systemLanguage) : setting;
            return Array.IndexOf(SupportedLanguages, wanted) >= 0 ? wanted : FallbackLanguage;
        }

        public void Load(string language)
        {
            string path = Path.Combine(Application.streamingAssetsPath, RelativePath);
            string[] lines = File.ReadAllLines(path, Encoding.UTF8);
            _header = CsvLine.Parse(lines[0]);
            for (int i = 1; i < lines.Length; i++)
            {
                if (lines[i].Length == 0) continue;
                string[] cells = CsvLine.Parse(lines[i]);
                _rows[cells[0]] = cells;
            }
            Language = language;
            _column = Array.IndexOf(_header, language);
            _fallbackColumn = Array.IndexOf(_header, FallbackLanguage);
        }

        /// <summary>
        /// Text for a key. An empty cell falls back to English; an unknown key is shown as #KEY#
        /// so that it stands out in screenshots, and is logged once.
        /// </summary>
        public string Get(string key)
        {
            if (!_rows.TryGetValue(key, out string[] row))
            {
                if (_reportedMissing.Add(key)) Debug.LogWarning($"Missing localisation key {key}");
                return "#" + key + "#";
            }
            string text = _column < row.Length ? row[_column] : "";
            return string.IsNullOrEmpty(text) ? row[_fallbackColumn] : text;
        }

        private static string ToCode(SystemLanguage lang)
        {
            switch (lang)
            {
                case SystemLanguage.French: return "fr";
                case SystemLanguage.German: return "de";
                case SystemLanguage.Spanish: return "es";
                case SystemLanguage.Japanese: return "ja";
                case SystemLanguage.Portuguese: return "pt-BR";
                default: return "en";
            }
        }
    }
}
