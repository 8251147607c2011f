using System;
using System.Collections.Generic;
using System.IO;
using UnityEngine;
using Fernhollow.Cinderglass.Inventory;

namespace Fernhollow.Cinderglass.Save
{
    [Serializable]
    public class SaveData
    {
        public int Version;
        public string SavedAtUtc;
        public int MapLevel;
        public int Gold;
        public float PlayTimeSeconds;
        public int PityCounter;
        public List<ItemStack> Items;

        // Only present in old saves; cleared by SaveMigrations.
        public int LegacyCoins;
        public int[] LegacyItemIndices;
        public int[] LegacyItemCounts;
    }

    [Serializable]
    internal class SaveEnvelope
    {
        public uint Crc;
        public string Payload;
    }

    /// <summary>
    /// Reads and writes the three save slots. A save is JSON wrapped with a CRC32 of the payload;
    /// saves from older builds are upgraded by <see cref="SaveMigrations"/> when loaded.
    /// </summary>
    public static class SaveSystem
    {
        /// <summary>Version written by this build. 3 since 1.1.0 (inventory stored by item id).</summary>
        public const int CurrentSaveVersion = 3;
        public const int SlotCount = 3;
        public const float AutosaveIntervalSeconds = 120f;
        public const string SaveFolderName = "saves";
        public const string FileNameFormat = "slot{0}.cgsave";

        private static float _lastAutosaveAt;

        public static string SlotPath(int slot)
        {
            string fileName = string.Format(FileNameFormat, slot);
            return Path.Combine(Application.persistentDataPath, SaveFolderName, fileName);
        }

        /// <summary>
        /// Writes a slot without ever leaving a half-written file: the data goes to a .tmp file
        /// first, which then replaces the real file, and the previous save is kept as .bak.
        /// </summary>
        public static void Write(int slot, SaveData data)
        {
            data.Version = CurrentSaveVersion;
            data.SavedAtUtc = DateTime.UtcNow.ToString("o");
            string payload = JsonUtility.ToJson(data);
            var envelope = new SaveEnvelope { Crc = Crc32.Compute(payload), Payload = payload };

            string path = SlotPath(slot);
            Directory.CreateDirectory(Path.GetDirectoryName(path));
            string tmp = path + ".tmp";
            File.WriteAllText(tmp, JsonUtility.ToJson(envelope));
            if (File.Exists(path))
            {
                File.Replace(tmp, path, path + ".bak");
            }
            else
            {
                File.Move(tmp, path);
            }
        }

        /// <summary>
        /// Loads a slot, falling back to the .bak copy if the main file is missing, unreadable or
        /// fails its checksum. Returns null for an empty slot.
        /// </summary>
        public static SaveData Read(int slot)
        {
            string path = SlotPath(slot);
            SaveData data = TryRead(path) ?? TryRead(path + ".bak");
            if (data == null) return null;
            if (data.Version > CurrentSaveVersion)
            {
                throw new SaveTooNewException(data.Version, CurrentSaveVersion);
            }
            return SaveMigrations.Upgrade(data);
        }

        private static SaveData TryRead(string path)
        {
            if (!File.Exists(path)) return null;
            try
            {
                var envelope = JsonUtility.FromJson<SaveEnvelope>(File.ReadAllText(path));
                if (Crc32.Compute(envelope.Payload) != envelope.Crc)
                {
                    Debug.LogWarning($"Save checksum mismatch in {path}");
                    return null;
                }
                return JsonUtility.FromJson<SaveData>(envelope.Payload);
            }
            catch (Exception e)
            {
                Debug.LogWarning($"Could not read {path}: {e.Message}");
                return null;
            }
        }

        /// <summary>
        /// Called by GameLoop once a frame. Saves every two minutes of play and on every map level
        /// transition, but postpones the timed save while any enemy is chasing or attacking.
        /// </summary>
        public static void TickAutosave(float now, bool inCombat, bool levelTransition, int slot, Func<SaveData> capture)
        {
            bool due = now - _lastAutosaveAt >= AutosaveIntervalSeconds && !inCombat;
            if (!due && !levelTransition) return;
            Write(slot, capture());
            _lastAutosaveAt = now;
        }

        /// <summary>
        /// Lumen can suspend the game at any moment (cert item LTR-014, June 2025): write the active
        /// slot straight away, combat or not.
        /// </summary>
        public static void OnSuspend(int slot, Func<SaveData> capture)
        {
            Write(slot, capture());
            _lastAutosaveAt = Time.realtimeSinceStartup;
        }
    }
}
