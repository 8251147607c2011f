using System;
using System.Collections.Generic;
using System.IO;
using UnityEngine;

namespace Fernhollow.Cinderglass.Loot
{
    [Serializable]
    public class LootEntry
    {
        public string item;
        public string rarity;
        public int weight;
        public int min = 1;
        public int max = 1;
    }

    [Serializable]
    public class LootTable
    {
        public string id;
        public int rolls = 1;
        public bool chest;
        public List<LootEntry> entries;
    }

    [Serializable]
    internal class LootTableFile
    {
        public int schema;
        public List<LootTable> tables;
    }

    /// <summary>
    /// Loads the loot tables shipped in StreamingAssets and rolls drops from them, with a pity
    /// counter so that chests cannot go on forever without a rare item.
    /// </summary>
    public class LootTableLoader
    {
        public const string RelativePath = "Data/loot_tables.json";
        public const int SupportedSchema = 3;

        /// <summary>
        /// Chests opened in a row without a rare or legendary item before the next chest is forced
        /// to give one. 10 since 1.2.0 (15 before).
        /// </summary>
        public const int PityThreshold = 10;

        /// <summary>Each point of Luck adds 1 % to the weight of rare and legendary entries only.</summary>
        public const float LuckWeightBonusPerPoint = 0.01f;

        private readonly Dictionary<string, LootTable> _tables = new Dictionary<string, LootTable>();

        /// <summary>Persisted in SaveData.PityCounter.</summary>
        public int ChestsSinceRare { get; set; }

        public void Load()
        {
            string path = Path.Combine(Application.streamingAssetsPath, RelativePath);
            var file = JsonUtility.FromJson<LootTableFile>(File.ReadAllText(path));
            if (file.schema != SupportedSchema)
            {
                throw new InvalidDataException($"{path}: schema {file.schema}, expected {SupportedSchema}");
            }
            foreach (LootTable table in file.tables) _tables[table.id] = table;
        }

        public List<(string item, int count)> Roll(string tableId, int luck, System.Random rng)
        {
            LootTable table = _tables[tableId];
            bool forceRare = table.chest && ChestsSinceRare + 1 >= PityThreshold;
            var drops = new List<(string, int)>();
            bool gotRare = false;

            for (int r = 0; r < table.rolls; r++)
            {
                LootEntry entry = Pick(table.entries, luck, rng, forceRare && r == 0);
                gotRare |= IsRare(entry);
                drops.Add((entry.item, rng.Next(entry.min, entry.max + 1)));
            }

            if (table.chest) ChestsSinceRare = gotRare ? 0 : ChestsSinceRare + 1;
            return drops;
        }

        private static bool IsRare(LootEntry e) => e.rarity == "rare" || e.rarity == "legendary";

        private static LootEntry Pick(List<LootEntry> entries, int luck, System.Random rng, bool rareOnly)
        {
            float total = 0f;
            var weights = new float[entries.Count];
            for (int i = 0; i < entries.Count; i++)
            {
                if (rareOnly && !IsRare(entries[i])) continue;
                float w = entries[i].weight;
                if (IsRare(entries[i])) w *= 1f + LuckWeightBonusPerPoint * luck;
                weights[i] = w;
                total += w;
            }
            double roll = rng.NextDouble() * total;
            for (int i = 0; i < entries.Count; i++)
            {
                roll -= weights[i];
                if (roll < 0) return entries[i];
            }
            return entries[entries.Count - 1];
        }
    }
}
