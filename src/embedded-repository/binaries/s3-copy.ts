import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  UploadPartCopyCommand,
  type S3Client,
} from '@aws-sdk/client-s3';

/** S3 copies at most 5 GiB in one request; larger objects are copied in parts of 1 GiB. */
const SINGLE_COPY_LIMIT = 5 * 1024 ** 3;
const COPY_PART_BYTES = 1024 ** 3;

/** Copies `from` to `to` inside `bucket` on the server (no bytes pass through this process). */
export async function copyObject(
  client: S3Client,
  bucket: string,
  from: string,
  to: string,
  size: number,
): Promise<void> {
  const source = `${bucket}/${from.split('/').map(encodeURIComponent).join('/')}`;
  if (size <= SINGLE_COPY_LIMIT) {
    await client.send(new CopyObjectCommand({ Bucket: bucket, Key: to, CopySource: source }));
    return;
  }
  const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: to }));
  try {
    const parts: { ETag: string | undefined; PartNumber: number }[] = [];
    for (let start = 0, part = 1; start < size; start += COPY_PART_BYTES, part++) {
      const end = Math.min(start + COPY_PART_BYTES, size) - 1;
      const copied = await client.send(
        new UploadPartCopyCommand({
          Bucket: bucket,
          Key: to,
          UploadId,
          PartNumber: part,
          CopySource: source,
          CopySourceRange: `bytes=${start}-${end}`,
        }),
      );
      parts.push({ ETag: copied.CopyPartResult?.ETag, PartNumber: part });
    }
    await client.send(
      new CompleteMultipartUploadCommand({
        Bucket: bucket,
        Key: to,
        UploadId,
        MultipartUpload: { Parts: parts },
      }),
    );
  } catch (error) {
    await client
      .send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: to, UploadId }))
      .catch(() => undefined);
    throw error;
  }
}
